//! Where a node of a validated object is, as the API server's messages name it.

/// Where a node is: its field path (`status.phase`), the path kube-openapi prints in a message
/// (relative to the validated value: `phase` when a status write validates `status` alone), and
/// the field of errors reported at the validation root (`<nil>` for a whole object, as the API
/// server prints a nil field path, or `status`).
#[derive(Debug, Clone)]
pub struct Loc<'a> {
    root: &'a str,
    field: String,
    body: String,
}

fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

impl<'a> Loc<'a> {
    /// The root of a validation: errors there are reported at `root`, fields start at `field`.
    pub fn new(root: &'a str, field: &str) -> Self {
        Self {
            root,
            field: field.to_string(),
            body: String::new(),
        }
    }

    pub fn child(&self, key: &str) -> Self {
        Self {
            root: self.root,
            field: join(&self.field, key),
            body: join(&self.body, key),
        }
    }

    pub fn index(&self, index: usize) -> Self {
        Self {
            root: self.root,
            field: format!("{}[{index}]", self.field),
            body: format!("{}[{index}]", self.body),
        }
    }

    /// The field path of the node.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The path kube-openapi names the node by in a message.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// The field of errors reported at the validation root.
    pub fn root(&self) -> &'a str {
        self.root
    }
}
