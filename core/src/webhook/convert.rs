//! The conversion webhook (`/convert`, ConversionReview v1), as controller-runtime's
//! `pkg/webhook/conversion` converts: hub to spoke with the spoke's `convert_from`, spoke to
//! hub with its `convert_to`, spoke to spoke through the hub; the first object that fails
//! fails the review with a `Failed` result whose message the API server reports.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::conversion::{ConversionError, Convertible, Hub};

type Step = Arc<dyn Fn(Value) -> Result<Value, ConversionError> + Send + Sync>;

/// How one version of a kind reaches the hub and comes back from it, on JSON.
#[derive(Clone)]
struct Version {
    to_hub: Step,
    from_hub: Step,
}

/// Every version of one kind (group and kind) that the webhook converts.
#[derive(Clone)]
pub(crate) struct KindConversion {
    pub group: String,
    pub kind: String,
    hub_version: String,
    versions: BTreeMap<String, Version>,
}

fn decode<T: DeserializeOwned>(value: Value) -> Result<T, ConversionError> {
    serde_json::from_value(value).map_err(|e| ConversionError::new(e.to_string()))
}

fn encode(value: &impl Serialize) -> Result<Value, ConversionError> {
    serde_json::to_value(value).map_err(|e| ConversionError::new(e.to_string()))
}

/// `v1` of `app.example.com/v1`, `v1` of `v1`.
fn version_of(api_version: &str) -> &str {
    api_version.rsplit('/').next().unwrap_or_default()
}

fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(group, _)| group)
}

impl KindConversion {
    /// The kind of the hub `H`, with the hub as its only version so far.
    pub fn hub<H: Hub + Serialize + DeserializeOwned>() -> Self {
        // The hub is decoded and encoded on its way through, as Go decodes it into its type.
        let through: Step = Arc::new(|value| encode(&decode::<H>(value)?));
        let mut versions = BTreeMap::new();
        versions.insert(
            H::version(&()).into_owned(),
            Version {
                to_hub: through.clone(),
                from_hub: through,
            },
        );
        KindConversion {
            group: H::group(&()).into_owned(),
            kind: H::kind(&()).into_owned(),
            hub_version: H::version(&()).into_owned(),
            versions,
        }
    }

    /// Adds the spoke `S` (a version of the same kind, in the same group).
    pub fn spoke<H, S>(&mut self) -> Result<(), String>
    where
        H: Hub + Serialize + DeserializeOwned,
        S: Convertible<H> + kube_core::Resource<DynamicType = ()> + Serialize + DeserializeOwned,
    {
        let (group, kind, version) = (S::group(&()), S::kind(&()), S::version(&()));
        if group != self.group || kind != self.kind {
            return Err(format!(
                "the spoke {kind}.{group}/{version} is not a version of the hub's kind {}.{}",
                self.kind, self.group
            ));
        }
        if self.versions.contains_key(version.as_ref()) {
            return Err(format!(
                "{kind}.{group}/{version} is registered twice for conversion"
            ));
        }
        let to_hub: Step = Arc::new(|value| encode(&decode::<S>(value)?.convert_to()?));
        let from_hub: Step = Arc::new(|value| encode(&S::convert_from(&decode::<H>(value)?)?));
        self.versions
            .insert(version.into_owned(), Version { to_hub, from_hub });
        Ok(())
    }

    /// `object` (of this kind) as `desired` (an apiVersion).
    pub(crate) fn convert(&self, object: &Value, desired: &str) -> Result<Value, ConversionError> {
        let source = object["apiVersion"].as_str().unwrap_or_default();
        if group_of(source) != group_of(desired) {
            return Err(ConversionError::new(format!(
                "{source} and {desired} are not the same API group"
            )));
        }
        let (from, to) = (version_of(source), version_of(desired));
        if from == to {
            return Err(ConversionError::new(format!(
                "conversion is not allowed between the same version {source} of {}",
                self.kind
            )));
        }
        let unknown = |version: &str| {
            ConversionError::new(format!(
                "{} {} is not convertible to {desired}: {version} is neither the hub nor a spoke",
                source, self.kind
            ))
        };
        let from_version = self.versions.get(from).ok_or_else(|| unknown(from))?;
        let to_version = self.versions.get(to).ok_or_else(|| unknown(to))?;
        let hub = if from == self.hub_version {
            object.clone()
        } else {
            (from_version.to_hub)(object.clone())?
        };
        let mut converted = if to == self.hub_version {
            hub
        } else {
            (to_version.from_hub)(hub)?
        };
        keep_identity(object, &mut converted, desired);
        Ok(converted)
    }
}

/// The converted object keeps the source's metadata (the API server refuses a conversion that
/// changes more than labels and annotations); its labels and annotations are the conversion's
/// when it carried the metadata over, the source's otherwise. apiVersion and kind are the
/// desired ones, whatever the types wrote.
fn keep_identity(source: &Value, converted: &mut Value, desired: &str) {
    let Some(map) = converted.as_object_mut() else {
        return;
    };
    let mut metadata = source.get("metadata").cloned().unwrap_or_else(|| json!({}));
    if let Some(written) = map.get("metadata").filter(|m| m.get("name").is_some())
        && let Some(kept) = metadata.as_object_mut()
    {
        for key in ["labels", "annotations"] {
            match written.get(key) {
                Some(value) => kept.insert(key.to_owned(), value.clone()),
                None => kept.remove(key),
            };
        }
    }
    map.insert("metadata".to_owned(), metadata);
    map.insert("apiVersion".to_owned(), json!(desired));
    map.insert("kind".to_owned(), source["kind"].clone());
}

/// Answers a ConversionReview (`apiextensions.k8s.io/v1`) with the kinds in `kinds`; `None`
/// when the body is no review with a request (an HTTP 400, as controller-runtime answers).
pub(crate) fn review(kinds: &[KindConversion], body: &[u8]) -> Option<Value> {
    let mut review: Value = serde_json::from_slice(body).ok()?;
    let request = review.get("request")?.as_object()?;
    let uid = request.get("uid").cloned().unwrap_or_else(|| json!(""));
    let desired = request.get("desiredAPIVersion")?.as_str()?.to_owned();
    let objects = request.get("objects")?.as_array()?;
    let converted: Result<Vec<Value>, ConversionError> = objects
        .iter()
        .map(|object| {
            let api_version = object["apiVersion"].as_str().unwrap_or_default();
            let kind = object["kind"].as_str().unwrap_or_default();
            let group = group_of(api_version);
            let conversion = kinds
                .iter()
                .find(|k| k.group == group && k.kind == kind)
                .ok_or_else(|| {
                    ConversionError::new(format!(
                        "no conversion is registered for kind {kind:?} of {api_version:?}"
                    ))
                })?;
            conversion.convert(object, &desired)
        })
        .collect();
    let response = match converted {
        Ok(objects) => json!({
            "uid": uid, "convertedObjects": objects, "result": {"status": "Success"},
        }),
        Err(error) => json!({
            "uid": uid, "convertedObjects": null,
            "result": {"status": "Failure", "message": error.message()},
        }),
    };
    let map = review.as_object_mut()?;
    map.remove("request");
    map.insert("response".to_owned(), response);
    Some(review)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source() -> Value {
        json!({"apiVersion": "app.example.com/v2", "kind": "WebApp", "metadata": {
            "name": "web", "uid": "u", "resourceVersion": "7", "labels": {"a": "1"},
            "annotations": {"x": "y"}, "managedFields": [{"manager": "kubectl"}]}})
    }

    #[test]
    fn the_source_metadata_stays_and_a_carried_over_one_keeps_its_labels() {
        let mut carried = json!({"apiVersion": "app.example.com/v2", "kind": "WebApp",
            "metadata": {"name": "web", "labels": {"a": "2"}}, "spec": {}});
        keep_identity(&source(), &mut carried, "app.example.com/v1");
        assert_eq!(
            carried["apiVersion"], "app.example.com/v1",
            "the desired version"
        );
        assert_eq!(carried["metadata"]["uid"], "u");
        assert_eq!(
            carried["metadata"]["managedFields"],
            source()["metadata"]["managedFields"]
        );
        assert_eq!(
            carried["metadata"]["labels"],
            json!({"a": "2"}),
            "the conversion's labels"
        );
        assert!(
            carried["metadata"].get("annotations").is_none(),
            "dropped by the conversion"
        );

        let mut bare = json!({"metadata": {}, "spec": {}});
        keep_identity(&source(), &mut bare, "app.example.com/v1");
        assert_eq!(
            bare["metadata"],
            source()["metadata"],
            "forgot the metadata: the source's"
        );
        assert_eq!(bare["kind"], "WebApp");
    }

    #[test]
    fn api_versions_split_into_group_and_version() {
        assert_eq!(
            (
                group_of("app.example.com/v1"),
                version_of("app.example.com/v1")
            ),
            ("app.example.com", "v1")
        );
        assert_eq!((group_of("v1"), version_of("v1")), ("", "v1"));
    }
}
