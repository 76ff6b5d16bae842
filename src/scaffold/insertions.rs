//! The lines `create api` adds at the `+webop:scaffold:<name>` markers of user-owned files,
//! rendered for one kind; `delete api` takes the same lines out again.

use super::catalogue::{INSERTIONS, Insertion, Place};
use super::context::{ProjectVars, ResourceVars, Scoped};
use super::{Error, Templates};
use crate::project::{Project, Resource, layout};

/// The lines of one insertion point, rendered for one kind.
pub(crate) struct Inserted {
    /// The file, relative to the project root.
    pub(crate) file: String,
    pub(crate) insertion: &'static Insertion,
    pub(crate) lines: Vec<String>,
}

/// The lines `create api` of `resource` adds at the insertion points of user-owned files.
pub(crate) fn insertions(
    templates: &Templates,
    project: &Project,
    resource: &Resource,
) -> Result<Vec<Inserted>, Error> {
    let context = ProjectVars::new(project, None).context(&Scoped::Resource(Box::new(
        ResourceVars::new(project, resource),
    )));
    let flavour = super::catalogue::Flavour::of(project, resource);
    let mut out = Vec::new();
    for insertion in INSERTIONS {
        if insertion.place == Place::GroupModule && !project.multigroup {
            continue;
        }
        if !insertion.needs.met_by(
            resource.api.is_some(),
            resource.has_controller(),
            flavour,
            false,
        ) || !super::catalogue::belongs_to(resource, insertion.needs, insertion.file)
        {
            continue;
        }
        let lines = insertion
            .lines
            .iter()
            .map(|line| templates.render_str(line, &context))
            .collect::<Result<Vec<_>, _>>()?;
        let file = templates.render_str(insertion.file, &context)?;
        let file = match insertion.place {
            Place::Group => layout::place(&file, &resource.group, project.multigroup),
            Place::Project | Place::GroupModule => file,
        };
        out.push(Inserted {
            file,
            insertion,
            lines,
        });
    }
    Ok(out)
}
