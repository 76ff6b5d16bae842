//! The Rust type of a Go type: Go's predeclared types, slices, maps, pointers, the package's
//! own types (by their Rust names) and Kubernetes' Go packages (by their k8s-openapi types).

use super::super::go::{GoFile, GoType};
use super::{Translator, named};

impl Translator<'_> {
    /// The Rust type of a Go type, or `None` (with an issue) when it has none.
    pub fn rust_type(&mut self, file: &GoFile, line: usize, ty: &GoType) -> Option<String> {
        let mapped = match ty {
            GoType::Pointer(inner) => return self.rust_type(file, line, inner),
            GoType::Slice(inner) if **inner == named("byte") || **inner == named("uint8") => {
                Ok("Vec<u8>".to_owned())
            }
            GoType::Slice(inner) => {
                return self
                    .rust_type(file, line, inner)
                    .map(|t| format!("Vec<{t}>"));
            }
            GoType::Array(len, inner) => match len.parse::<usize>() {
                Ok(n) => {
                    return self
                        .rust_type(file, line, inner)
                        .map(|t| format!("[{t}; {n}]"));
                }
                Err(_) => Err(format!("an array of length {len}")),
            },
            GoType::Map(key, value) => {
                let key_ok = match &**key {
                    GoType::Named { pkg: None, name } => {
                        name == "string"
                            || self
                                .package
                                .find(name)
                                .is_some_and(|(_, t)| t.ty == named("string"))
                    }
                    _ => false,
                };
                if key_ok {
                    return self
                        .rust_type(file, line, value)
                        .map(|t| format!("std::collections::BTreeMap<String, {t}>"));
                }
                Err("a map whose key is not a string".to_owned())
            }
            GoType::Named { pkg: None, name } => match builtin(name) {
                Some(rust) => Ok(rust.to_owned()),
                None => match self.package.find(name) {
                    Some((_, spec)) if spec.alias => {
                        let aliased = spec.ty.clone();
                        return self.rust_type(file, line, &aliased);
                    }
                    Some(_) => Ok(self.rust_name(name)),
                    None => Err(format!("type {name}, which the package does not declare")),
                },
            },
            GoType::Named {
                pkg: Some(pkg),
                name,
            } => match file.import_path(pkg) {
                Some(path) => match self.shared_type(path, name) {
                    Some(rust) => Ok(rust),
                    None => external(path, name).ok_or_else(|| format!("{pkg}.{name} ({path})")),
                },
                None => Err(format!("{pkg}.{name}: no import names {pkg}")),
            },
            GoType::Struct(_) => Err("an anonymous struct (controller-gen refuses it)".to_owned()),
            GoType::Other(what) => Err(what.clone()),
        };
        match mapped {
            Ok(rust) => Some(rust),
            Err(what) => {
                self.issue(file, line, format!("{what} has no Rust mapping: left out"));
                None
            }
        }
    }
}

impl Translator<'_> {
    /// A type of another of the project's Go packages that is no API package (`api/shared`):
    /// the module `shared` gives that package in the API crate, recorded to be translated.
    fn shared_type(&mut self, path: &str, name: &str) -> Option<String> {
        let dir = path.strip_prefix(&self.module)?.strip_prefix('/')?;
        if self.module.is_empty() || self.api_dirs.contains(dir) {
            return None;
        }
        self.shared.insert((dir.to_owned(), name.to_owned()));
        Some(format!("crate::{}::{name}", shared_module(dir)))
    }
}

/// The API crate's module of the project's Go package `dir` (`api/shared` is `shared`,
/// `api/common/v1` is `common_v1`).
pub fn shared_module(dir: &str) -> String {
    let dir = dir.strip_prefix("api/").unwrap_or(dir);
    let name: String = dir
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let ident = super::super::super::naming::field_ident(&name, &mut Default::default());
    // A module is also a file name: `type` is `type_`, not `r#type`.
    match ident.strip_prefix("r#") {
        Some(keyword) => format!("{keyword}_"),
        None => ident,
    }
}

/// Go's predeclared types.
fn builtin(name: &str) -> Option<&'static str> {
    Some(match name {
        "string" => "String",
        "bool" => "bool",
        "int" => "isize",
        "int8" => "i8",
        "int16" => "i16",
        "int32" | "rune" => "i32",
        "int64" => "i64",
        "uint" => "usize",
        "uint8" | "byte" => "u8",
        "uint16" => "u16",
        "uint32" => "u32",
        "uint64" => "u64",
        "float32" => "f32",
        "float64" => "f64",
        _ => return None,
    })
}

/// The k8s-openapi (or serde_json) type of a type of Kubernetes' Go packages.
fn external(path: &str, name: &str) -> Option<String> {
    let k8s = |module: &str| Some(format!("k8s_openapi::{module}::{name}"));
    match path {
        "k8s.io/apimachinery/pkg/apis/meta/v1" => match name {
            // A Go duration string ("4h"): controller-gen's schema is `type: string`.
            "Duration" => Some("String".into()),
            "TypeMeta" | "ListMeta" => None,
            _ => k8s("apimachinery::pkg::apis::meta::v1"),
        },
        "k8s.io/apimachinery/pkg/api/resource" => k8s("apimachinery::pkg::api::resource"),
        "k8s.io/apimachinery/pkg/util/intstr" => k8s("apimachinery::pkg::util::intstr"),
        "k8s.io/apimachinery/pkg/runtime" if name == "RawExtension" => {
            Some("serde_json::Map<String, serde_json::Value>".into())
        }
        "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1" if name == "JSON" => {
            Some("serde_json::Value".into())
        }
        _ => {
            let rest = path.strip_prefix("k8s.io/api/")?;
            let (group, version) = rest.split_once('/')?;
            k8s(&format!("api::{}::{version}", group.replace('/', "::")))
        }
    }
}
