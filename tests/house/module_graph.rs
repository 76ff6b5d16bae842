//! Modules that depend one way. A package's modules form a tree; among the children of one
//! module (siblings), what one uses of another must not lead back to it. A child may use its
//! parent (`super::`), which is the parent's interface to it, and tests may reach anywhere:
//! `#[cfg(test)]` items and `tests.rs` files are not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use syn::visit::{self, Visit};
use syn::{Attribute, Item, Meta, UseTree};

use crate::workspace::{self, files, shown};

/// A module's path from its crate's root: `["scaffold", "plan"]` for `src/scaffold/plan.rs`.
type Module = Vec<String>;

/// Each module of the crate whose source is `src`, with the modules it uses.
fn uses_by_module(src: &Path) -> BTreeMap<Module, (String, BTreeSet<Module>)> {
    let mut sources = BTreeMap::new();
    for path in files(src, ".rs") {
        let relative = path.strip_prefix(src).unwrap().with_extension("");
        let mut module: Module = relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy().into_owned())
            .collect();
        if module.iter().any(|part| part == "tests")
            || module == ["main"] && src.join("lib.rs").exists()
        {
            continue;
        }
        if matches!(
            module.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            module.pop();
        }
        sources.insert(module, path);
    }
    let modules: BTreeSet<Module> = sources.keys().cloned().collect();
    sources
        .into_iter()
        .map(|(module, path)| {
            let text = fs::read_to_string(&path).unwrap();
            let file =
                syn::parse_file(&text).unwrap_or_else(|error| panic!("{}: {error}", shown(&path)));
            let mut uses = Uses {
                module: &module,
                modules: &modules,
                found: BTreeSet::new(),
            };
            uses.visit_file(&file);
            let found = uses.found;
            (module, (shown(&path), found))
        })
        .collect()
}

/// The modules a file names through `crate::`, `super::` and `self::` paths.
struct Uses<'a> {
    module: &'a Module,
    modules: &'a BTreeSet<Module>,
    found: BTreeSet<Module>,
}

impl Uses<'_> {
    /// The deepest module `segments` lies in, if it starts at this crate.
    fn resolve(&mut self, segments: &[String]) {
        let (mut base, mut rest) = match segments.first().map(String::as_str) {
            Some("crate") => (Vec::new(), &segments[1..]),
            Some("self") => (self.module.clone(), &segments[1..]),
            Some("super") => (self.module.clone(), segments),
            _ => return,
        };
        while rest.first().is_some_and(|segment| segment == "super") {
            base.pop();
            rest = &rest[1..];
        }
        for segment in rest {
            let mut deeper = base.clone();
            deeper.push(segment.clone());
            if !self.modules.contains(&deeper) {
                break;
            }
            base = deeper;
        }
        self.found.insert(base);
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &UseTree) {
        match tree {
            UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
                prefix.pop();
            }
            UseTree::Name(name) => self.leaf(prefix, name.ident.to_string()),
            UseTree::Rename(rename) => self.leaf(prefix, rename.ident.to_string()),
            UseTree::Glob(_) => self.resolve(&prefix.clone()),
            UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    fn leaf(&mut self, prefix: &[String], name: String) {
        let mut path = prefix.to_vec();
        if name != "self" {
            path.push(name);
        }
        self.resolve(&path);
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_item(&mut self, item: &'ast Item) {
        if !attributes(item).iter().any(is_test_only) {
            visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.resolve(&segments);
        visit::visit_path(self, path);
    }
}

fn attributes(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(item) => &item.attrs,
        Item::Enum(item) => &item.attrs,
        Item::Fn(item) => &item.attrs,
        Item::Impl(item) => &item.attrs,
        Item::Mod(item) => &item.attrs,
        Item::Static(item) => &item.attrs,
        Item::Struct(item) => &item.attrs,
        Item::Trait(item) => &item.attrs,
        Item::Type(item) => &item.attrs,
        Item::Use(item) => &item.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]` (or a `cfg` naming `test`) and `#[test]`.
fn is_test_only(attribute: &Attribute) -> bool {
    let path = attribute.path();
    if path.is_ident("test") {
        return true;
    }
    path.is_ident("cfg")
        && matches!(&attribute.meta, Meta::List(list) if list
            .tokens
            .to_string()
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|word| word == "test"))
}

/// Among the children of each module, the groups that use one another, each with the uses that
/// close the circle (`file: uses module`).
fn circles(uses: &BTreeMap<Module, (String, BTreeSet<Module>)>) -> Vec<String> {
    let parents: BTreeSet<Module> = uses
        .keys()
        .filter(|module| !module.is_empty())
        .map(|module| module[..module.len() - 1].to_vec())
        .collect();
    let mut found = Vec::new();
    for parent in parents {
        let child_of = |module: &Module| {
            (module.len() > parent.len() && module.starts_with(&parent))
                .then(|| module[parent.len()].clone())
        };
        // child -> child it uses -> the files that use it
        let mut graph: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        for (module, (file, used)) in uses {
            let Some(from) = child_of(module) else {
                continue;
            };
            for to in used.iter().filter_map(child_of).filter(|to| *to != from) {
                graph
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(file.clone());
            }
        }
        for group in strongly_connected(&graph) {
            let mut why = Vec::new();
            for from in &group {
                for (to, files) in &graph[from] {
                    if group.contains(to) {
                        for file in files {
                            why.push(format!("    {file} uses {to}"));
                        }
                    }
                }
            }
            let place = if parent.is_empty() {
                "the crate root".to_owned()
            } else {
                parent.join("::")
            };
            found.push(format!(
                "in {place}, {} use one another:\n{}",
                group.iter().cloned().collect::<Vec<_>>().join(", "),
                why.join("\n")
            ));
        }
    }
    found
}

/// The groups of more than one node that reach one another (Tarjan's algorithm).
fn strongly_connected(
    graph: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
) -> Vec<BTreeSet<String>> {
    struct Search<'g> {
        graph: &'g BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        groups: Vec<BTreeSet<String>>,
    }
    impl<'g> Search<'g> {
        fn visit(&mut self, node: &'g str) {
            let next = self.index.len();
            self.index.insert(node, next);
            self.low.insert(node, next);
            self.stack.push(node);
            for to in self.graph.get(node).into_iter().flat_map(BTreeMap::keys) {
                if !self.index.contains_key(to.as_str()) {
                    self.visit(to);
                    let low = self.low[node].min(self.low[to.as_str()]);
                    self.low.insert(node, low);
                } else if self.stack.contains(&to.as_str()) {
                    let low = self.low[node].min(self.index[to.as_str()]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut group = BTreeSet::new();
                while let Some(member) = self.stack.pop() {
                    group.insert(member.to_owned());
                    if member == node {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.groups.push(group);
                }
            }
        }
    }
    let mut search = Search {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        groups: Vec::new(),
    };
    for node in graph.keys() {
        if !search.index.contains_key(node.as_str()) {
            search.visit(node);
        }
    }
    search.groups
}

#[test]
fn sibling_modules_depend_one_way() {
    let mut found = Vec::new();
    for member in workspace::members() {
        let uses = uses_by_module(&member.join("src"));
        assert!(!uses.is_empty(), "no modules in {}", shown(&member));
        found.extend(circles(&uses));
    }
    assert!(
        found.is_empty(),
        "modules that use one another:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_circle_between_siblings_is_named_with_the_uses_that_close_it() {
    let module = |path: &str| path.split("::").map(str::to_owned).collect::<Module>();
    let uses = BTreeMap::from([
        (
            module("a"),
            ("src/a.rs".to_owned(), BTreeSet::from([module("b::c")])),
        ),
        (module("b"), ("src/b/mod.rs".to_owned(), BTreeSet::new())),
        (
            module("b::c"),
            ("src/b/c.rs".to_owned(), BTreeSet::from([module("a")])),
        ),
        (
            module("d"),
            ("src/d.rs".to_owned(), BTreeSet::from([module("a")])),
        ),
    ]);
    assert_eq!(
        circles(&uses),
        ["in the crate root, a, b use one another:\n    src/a.rs uses b\n    src/b/c.rs uses a"]
    );
}
