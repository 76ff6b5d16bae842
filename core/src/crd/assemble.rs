//! From the versions of each kind to its `CustomResourceDefinition` (controller-gen's
//! `NeedCRDFor` and the CRD markers' `ApplyToCRD`).

use std::collections::BTreeMap;
use std::fmt;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceColumnDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionSpec,
    CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
    CustomResourceSubresourceStatus, CustomResourceSubresources, CustomResourceValidation,
    SelectableField,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use super::{CrdVersion, CustomResourceDefinition, VERSION, VERSION_ANNOTATION};

/// Versions of one kind that cannot form a CRD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Several versions and none marked `#[storage_version]`.
    NoStorageVersion { kind: String },
    /// More than one version marked `#[storage_version]`.
    SeveralStorageVersions { kind: String, versions: Vec<String> },
    /// Every version is `#[unserved_version]`.
    NothingServed { kind: String },
    /// Two versions of a kind disagree on something the whole CRD has once.
    Inconsistent {
        kind: String,
        what: &'static str,
        first: String,
        second: String,
    },
    /// The same version of a kind twice.
    DuplicateVersion { kind: String, version: String },
    /// A `#[metadata(...)]` entry that is not `key=value`.
    BadMetadata { kind: String, entry: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoStorageVersion { kind } => write!(
                f,
                "CRD for {kind} has several versions and none is the storage version: mark one with #[storage_version]"
            ),
            Error::SeveralStorageVersions { kind, versions } => write!(
                f,
                "CRD for {kind} has several storage versions ({}): exactly one version may carry #[storage_version]",
                versions.join(", ")
            ),
            Error::NothingServed { kind } => {
                write!(
                    f,
                    "CRD for {kind} does not serve any version: every version is #[unserved_version]"
                )
            }
            Error::Inconsistent {
                kind,
                what,
                first,
                second,
            } => write!(
                f,
                "the versions of {kind} disagree on its {what}: {first:?} and {second:?}; every version must declare the same"
            ),
            Error::DuplicateVersion { kind, version } => {
                write!(f, "{kind} is declared twice in version {version}")
            }
            Error::BadMetadata { kind, entry } => write!(
                f,
                "metadata entry {entry:?} of {kind} is not in 'key=value' format"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// The CRDs of all `versions`, one per (group, kind), in the order kinds first appear.
pub fn assemble(
    versions: impl IntoIterator<Item = CrdVersion>,
) -> Result<Vec<CustomResourceDefinition>, Error> {
    let mut kinds: Vec<((&str, &str), Vec<CrdVersion>)> = Vec::new();
    for version in versions {
        let key = (version.group, version.kind);
        match kinds.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(version),
            None => kinds.push((key, vec![version])),
        }
    }
    kinds
        .into_iter()
        .filter(|(_, versions)| versions.iter().any(|v| v.crd))
        .map(|(_, versions)| crd_of_kind(versions))
        .collect()
}

fn same<T: PartialEq + fmt::Debug>(
    versions: &[CrdVersion],
    what: &'static str,
    get: impl Fn(&CrdVersion) -> T,
) -> Result<(), Error> {
    let first = get(&versions[0]);
    for other in &versions[1..] {
        let value = get(other);
        if value != first {
            return Err(Error::Inconsistent {
                kind: versions[0].kind.to_owned(),
                what,
                first: format!("{first:?}"),
                second: format!("{value:?}"),
            });
        }
    }
    Ok(())
}

fn crd_of_kind(mut versions: Vec<CrdVersion>) -> Result<CustomResourceDefinition, Error> {
    let first = versions[0].clone();
    let kind = first.kind.to_owned();
    same(&versions, "names", |v| v.names)?;
    same(&versions, "scope", |v| v.namespaced)?;
    same(&versions, "#[resource(skip)]", |v| v.crd)?;
    same(&versions, "metadata annotations", |v| v.annotations)?;
    same(&versions, "metadata labels", |v| v.labels)?;

    versions.retain(|v| !v.skip);
    versions.sort_by(|a, b| a.version.cmp(b.version));
    if let Some(pair) = versions.windows(2).find(|w| w[0].version == w[1].version) {
        return Err(Error::DuplicateVersion {
            kind,
            version: pair[0].version.to_owned(),
        });
    }

    let mut spec_versions: Vec<CustomResourceDefinitionVersion> =
        versions.iter().map(version_of).collect();
    if let [only] = spec_versions.as_mut_slice() {
        only.storage = true;
    }
    let storage: Vec<String> = spec_versions
        .iter()
        .filter(|v| v.storage)
        .map(|v| v.name.clone())
        .collect();
    match storage.len() {
        0 => return Err(Error::NoStorageVersion { kind }),
        1 => {}
        _ => {
            return Err(Error::SeveralStorageVersions {
                kind,
                versions: storage,
            });
        }
    }
    if !spec_versions.iter().any(|v| v.served) {
        return Err(Error::NothingServed { kind });
    }

    let mut annotations = pairs(&kind, first.annotations)?;
    annotations.insert(VERSION_ANNOTATION.to_owned(), VERSION.to_owned());
    let labels = pairs(&kind, first.labels)?;
    let names = first.names;
    let strings =
        |list: &[&str]| (!list.is_empty()).then(|| list.iter().map(|s| (*s).to_owned()).collect());
    Ok(CustomResourceDefinition {
        metadata: ObjectMeta {
            name: Some(format!("{}.{}", names.plural, first.group)),
            annotations: Some(annotations),
            labels: (!labels.is_empty()).then_some(labels),
            ..ObjectMeta::default()
        },
        spec: CustomResourceDefinitionSpec {
            group: first.group.to_owned(),
            names: CustomResourceDefinitionNames {
                kind: kind.clone(),
                list_kind: Some(format!("{kind}List")),
                plural: names.plural.to_owned(),
                singular: Some(names.singular.to_owned()),
                short_names: strings(names.short_names),
                categories: strings(names.categories),
            },
            scope: if first.namespaced {
                "Namespaced"
            } else {
                "Cluster"
            }
            .to_owned(),
            versions: spec_versions,
            ..CustomResourceDefinitionSpec::default()
        },
        status: None,
    })
}

fn pairs(kind: &str, entries: &[&str]) -> Result<BTreeMap<String, String>, Error> {
    entries
        .iter()
        .map(|entry| match entry.split_once('=') {
            Some((k, v)) => Ok((k.to_owned(), v.to_owned())),
            None => Err(Error::BadMetadata {
                kind: kind.to_owned(),
                entry: (*entry).to_owned(),
            }),
        })
        .collect()
}

fn version_of(v: &CrdVersion) -> CustomResourceDefinitionVersion {
    let columns: Vec<CustomResourceColumnDefinition> = v
        .printer_columns
        .iter()
        .map(|c| CustomResourceColumnDefinition {
            name: c.name.to_owned(),
            type_: c.type_.to_owned(),
            json_path: c.json_path.to_owned(),
            description: c.description.map(str::to_owned),
            format: c.format.map(str::to_owned),
            priority: (c.priority != 0).then_some(c.priority),
        })
        .collect();
    // controller-gen creates the (possibly empty) subresources object for printer columns too.
    let subresources =
        (v.status_subresource || v.scale.is_some() || !columns.is_empty()).then(|| {
            CustomResourceSubresources {
                status: v
                    .status_subresource
                    .then(|| CustomResourceSubresourceStatus(serde_json::json!({}))),
                scale: v.scale.map(|s| CustomResourceSubresourceScale {
                    spec_replicas_path: s.spec_path.to_owned(),
                    status_replicas_path: s.status_path.to_owned(),
                    label_selector_path: s.selector_path.map(str::to_owned),
                }),
            }
        });
    CustomResourceDefinitionVersion {
        name: v.version.to_owned(),
        served: v.served,
        storage: v.storage,
        deprecated: v.deprecated.is_some().then_some(true),
        deprecation_warning: v.deprecated.flatten().map(str::to_owned),
        schema: Some(CustomResourceValidation {
            open_api_v3_schema: Some(v.schema.clone()),
        }),
        additional_printer_columns: (!columns.is_empty()).then_some(columns),
        selectable_fields: (!v.selectable_fields.is_empty()).then(|| {
            v.selectable_fields
                .iter()
                .map(|p| SelectableField {
                    json_path: (*p).to_owned(),
                })
                .collect()
        }),
        subresources,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd::{Names, PrinterColumn, root_schema};
    use crate::schema::{Definitions, typed};

    fn version(name: &'static str) -> CrdVersion {
        CrdVersion {
            group: "app.example.com",
            version: name,
            kind: "WebApp",
            names: Names {
                plural: "webapps",
                singular: "webapp",
                short_names: &[],
                categories: &[],
            },
            namespaced: true,
            schema: root_schema(
                &Definitions::default(),
                None,
                Some(typed("object", None)),
                None,
                &[],
                &[],
            ),
            printer_columns: &[],
            status_subresource: false,
            scale: None,
            storage: false,
            served: true,
            skip: false,
            crd: true,
            deprecated: None,
            selectable_fields: &[],
            annotations: &[],
            labels: &[],
        }
    }

    #[test]
    fn a_single_version_is_the_storage_version() {
        let crds = assemble([version("v1")]).unwrap();
        let crd = &crds[0];
        assert_eq!(
            crd.metadata.name.as_deref(),
            Some("webapps.app.example.com")
        );
        assert!(crd.spec.versions[0].storage);
        assert_eq!(crd.spec.names.list_kind.as_deref(), Some("WebAppList"));
        assert_eq!(
            crd.metadata.annotations.as_ref().unwrap()[VERSION_ANNOTATION],
            VERSION
        );
    }

    #[test]
    fn versions_are_sorted_by_name_and_need_one_storage_version() {
        let err = assemble([version("v2"), version("v1")]).unwrap_err();
        assert_eq!(
            err,
            Error::NoStorageVersion {
                kind: "WebApp".into()
            }
        );

        let mut v2 = version("v2");
        v2.storage = true;
        let crds = assemble([v2, version("v1beta1"), version("v1")]).unwrap();
        let names: Vec<_> = crds[0]
            .spec
            .versions
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        assert_eq!(names, ["v1", "v1beta1", "v2"]);
    }

    #[test]
    fn skipped_versions_are_left_out() {
        let mut v2 = version("v2");
        v2.skip = true;
        let crds = assemble([version("v1"), v2]).unwrap();
        assert_eq!(crds[0].spec.versions.len(), 1);
    }

    #[test]
    fn a_skipped_kind_has_no_crd() {
        let mut v1 = version("v1");
        v1.crd = false;
        assert_eq!(assemble([v1]).unwrap(), vec![]);
    }

    #[test]
    fn versions_must_agree_on_scope() {
        let mut v2 = version("v2");
        v2.namespaced = false;
        v2.storage = true;
        let err = assemble([version("v1"), v2]).unwrap_err();
        assert!(err.to_string().contains("disagree on its scope"), "{err}");
    }

    #[test]
    fn printer_columns_bring_an_empty_subresources_object() {
        let mut v1 = version("v1");
        v1.printer_columns = &[PrinterColumn {
            name: "Age",
            type_: "date",
            json_path: ".metadata.creationTimestamp",
            description: None,
            format: None,
            priority: 0,
        }];
        let crd = &assemble([v1]).unwrap()[0];
        let json = serde_json::to_value(&crd.spec.versions[0]).unwrap();
        assert_eq!(json["subresources"], serde_json::json!({}));
        assert_eq!(json["additionalPrinterColumns"][0].get("priority"), None);
    }

    #[test]
    fn deprecation_and_metadata() {
        let mut v1 = version("v1");
        v1.deprecated = Some(Some("use v2"));
        v1.labels = &["a=b"];
        let crd = &assemble([v1]).unwrap()[0];
        assert_eq!(
            crd.spec.versions[0].deprecation_warning.as_deref(),
            Some("use v2")
        );
        assert_eq!(crd.metadata.labels.as_ref().unwrap()["a"], "b");

        let mut bad = version("v1");
        bad.annotations = &["nokey"];
        assert!(matches!(assemble([bad]), Err(Error::BadMetadata { .. })));
    }
}
