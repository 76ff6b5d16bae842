//! `webop edit`: the project-wide settings a project can change after `init`.

use super::Project;

/// Why an edit contradicts the project. Nothing has been written.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error(
        "--namespaced: {kind} ({group}/{version}) is cluster-scoped and has a controller; a \
         namespace-scoped manager is granted a Role in its own namespace only, which cannot cover \
         cluster-scoped objects (delete that API, or keep the manager cluster-scoped)"
    )]
    ClusterScopedController {
        kind: String,
        group: String,
        version: String,
    },
    #[error(
        "--multigroup=false: the project has kinds of the groups {groups}; the single-group \
         layout keeps one group's modules (delete the other groups' APIs first, or keep the \
         multigroup layout)"
    )]
    SeveralGroups { groups: String },
}

impl Project {
    /// The project in the multigroup layout (`true`) or the single-group one, with each kind's
    /// recorded module path (`path:`) moved along.
    pub fn with_multigroup(&self, multigroup: bool) -> Result<Project, Refused> {
        if !multigroup {
            let mut groups: Vec<&str> = self
                .resources
                .iter()
                .filter(|r| r.api.is_some() || r.has_controller())
                .map(|r| r.group.as_str())
                .collect();
            groups.sort();
            groups.dedup();
            if groups.len() > 1 {
                return Err(Refused::SeveralGroups {
                    groups: groups.join(", "),
                });
            }
        }
        let mut after = Project {
            multigroup,
            ..self.clone()
        };
        let paths: Vec<Option<String>> = after
            .resources
            .iter()
            .map(|r| {
                let recorded = r.api.is_some() && r.path.is_some();
                recorded.then(|| after.api_module_path(&r.group, &r.version))
            })
            .collect();
        for (resource, path) in after.resources.iter_mut().zip(paths) {
            if path.is_some() {
                resource.path = path;
            }
        }
        Ok(after)
    }

    /// The project with its manager namespace-scoped (`true`) or cluster-scoped (`false`).
    pub fn with_namespaced_manager(&self, namespaced: bool) -> Result<Project, Refused> {
        if namespaced {
            let cluster_scoped = self.resources.iter().find(|r| {
                r.has_controller()
                    && !r.external
                    && r.api.as_ref().is_some_and(|api| !api.namespaced)
            });
            if let Some(r) = cluster_scoped {
                return Err(Refused::ClusterScopedController {
                    kind: r.kind.clone(),
                    group: r.qualified_group(),
                    version: r.version.clone(),
                });
            }
        }
        Ok(Project {
            namespaced,
            ..self.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::{Api, Resource};

    fn with_kind(namespaced: bool, controller: bool) -> Project {
        let mut project = Project::new("webapp-operator", "example.com", None);
        project.resources.push(Resource {
            api: Some(Api {
                crd_version: "v1".into(),
                namespaced,
            }),
            controller,
            controllers: Vec::new(),
            domain: "example.com".into(),
            core: false,
            external: false,
            group: "infra".into(),
            kind: "Cluster".into(),
            path: None,
            plural: None,
            version: "v1".into(),
            webhooks: None,
        });
        project
    }

    #[test]
    fn namespaced_sets_the_flag_and_back() {
        let project = with_kind(true, true);
        let namespaced = project.with_namespaced_manager(true).unwrap();
        assert!(namespaced.namespaced);
        assert_eq!(namespaced.with_namespaced_manager(false).unwrap(), project);
    }

    #[test]
    fn a_controller_of_a_cluster_scoped_kind_refuses_a_namespaced_manager() {
        let error = with_kind(false, true)
            .with_namespaced_manager(true)
            .unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("Cluster (infra.example.com/v1) is cluster-scoped"),
            "{message}"
        );
        // Without a controller nothing watches it: the types alone are fine.
        assert!(
            with_kind(false, false)
                .with_namespaced_manager(true)
                .is_ok()
        );
    }
}
