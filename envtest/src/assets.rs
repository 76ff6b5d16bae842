//! Where the control plane's binaries are: `KUBEBUILDER_ASSETS`, as controller-runtime's envtest
//! reads it (the same variable, the same file names), so `setup-envtest` and `tools/k8s-assets`
//! both fill it.

use std::path::{Path, PathBuf};

use super::Error;

/// The environment variable naming the directory of the binaries.
pub const ASSETS_VARIABLE: &str = "KUBEBUILDER_ASSETS";

/// The control plane's binaries, by their file names in the assets directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    /// `etcd`, the API server's storage.
    Etcd,
    /// `kube-apiserver`.
    ApiServer,
    /// `kube-controller-manager`: garbage collection, Deployments, ReplicaSets, namespaces.
    ControllerManager,
    /// `kube-scheduler`: binds pods to nodes, so kwok's nodes run them.
    Scheduler,
    /// `kwok`: plays the kubelet of fake nodes, so pods become Running and Ready.
    Kwok,
}

impl Binary {
    /// The file name.
    pub fn file_name(self) -> &'static str {
        match self {
            Self::Etcd => "etcd",
            Self::ApiServer => "kube-apiserver",
            Self::ControllerManager => "kube-controller-manager",
            Self::Scheduler => "kube-scheduler",
            Self::Kwok => "kwok",
        }
    }
}

/// A directory of control-plane binaries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assets {
    dir: PathBuf,
}

impl Assets {
    /// The directory `KUBEBUILDER_ASSETS` names, if it is set (and not empty).
    pub fn from_env() -> Option<Self> {
        std::env::var_os(ASSETS_VARIABLE)
            .filter(|dir| !dir.is_empty())
            .map(|dir| Self::new(PathBuf::from(dir)))
    }

    /// The binaries in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of `binary`, or an error naming the variable and how to fill the directory.
    pub fn path(&self, binary: Binary) -> Result<PathBuf, Error> {
        let path = self.dir.join(binary.file_name());
        if path.is_file() {
            Ok(path)
        } else {
            Err(Error::MissingBinary {
                binary: binary.file_name(),
                dir: self.dir.clone(),
            })
        }
    }

    /// Whether `binary` is there.
    pub fn has(&self, binary: Binary) -> bool {
        self.dir.join(binary.file_name()).is_file()
    }

    /// kwok's stages beside it, if there are: kwok 0.8 has none built in (0.7 had), and
    /// `tools/k8s-assets` writes its release's "fast" set there.
    pub fn kwok_stages(&self) -> Option<PathBuf> {
        Some(self.dir.join(KWOK_STAGES)).filter(|path| path.is_file())
    }
}

/// The file of kwok's stages in the assets directory.
const KWOK_STAGES: &str = "kwok-stages.yaml";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_binary_names_the_variable_and_the_script_that_builds_it() {
        let assets = Assets::new("/nonexistent/k8s/1.37.2-linux-amd64");
        let message = assets.path(Binary::ApiServer).unwrap_err().to_string();
        assert!(message.contains("kube-apiserver"), "{message}");
        assert!(
            message.contains("/nonexistent/k8s/1.37.2-linux-amd64"),
            "{message}"
        );
        assert!(message.contains(ASSETS_VARIABLE), "{message}");
        assert!(message.contains("tools/k8s-assets"), "{message}");
    }
}
