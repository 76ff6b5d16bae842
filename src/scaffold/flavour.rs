//! The flavours of `create api`: which of a resource's templates the catalogue renders.

/// Which flavour of `create api` a resource-scoped template belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// Every flavour.
    Any,
    /// The plain scaffold's files a foreign kind's controller shares (the controller itself:
    /// its variables name the foreign type).
    PlainOrForeign,
    /// `create api` without `--image`: kubebuilder's plain scaffold.
    Plain,
    /// `create api --image`: the deploy-image controller (a Deployment and a Service per object).
    DeployImage,
    /// `create api --image --kubebuilder-spec`: kubebuilder's deploy-image kind (spec `size`,
    /// the image from the options, a Deployment per object).
    KubebuilderImage,
    /// `create api --resource=false` for a kind the project does not define (Kubernetes' own,
    /// an external API's): its controller's tests cannot create one from a scaffolded spec.
    Foreign,
}

impl Flavour {
    /// The flavour of `resource`'s files in `project`.
    pub fn of(project: &crate::project::Project, resource: &crate::project::Resource) -> Self {
        if resource.foreign() {
            Flavour::Foreign
        } else if let Some(options) = project.deploy_image_options(resource) {
            if options.kubebuilder_spec {
                Flavour::KubebuilderImage
            } else {
                Flavour::DeployImage
            }
        } else {
            Flavour::Plain
        }
    }
}
