//! Roles for our own rule sets, with the YAML worked out by hand from controller-gen's algorithm.

use super::{Rule, role_documents};
use crate::yaml::documents;

fn list(items: &str) -> Vec<String> {
    if items.is_empty() {
        Vec::new()
    } else {
        items.split(';').map(str::to_owned).collect()
    }
}

/// A rule in controller-gen's marker spelling: `groups`, `resources`, `verbs` as `a;b` lists
/// (`""` is the core group).
fn rule(groups: &str, resources: &str, verbs: &str) -> Rule {
    let groups = groups.split(';').map(str::to_owned).collect();
    Rule {
        groups,
        resources: list(resources),
        verbs: list(verbs),
        ..Rule::default()
    }
}

fn role_yaml(rules: &[Rule]) -> String {
    documents(&role_documents(rules, "manager-role"))
}

#[test]
fn webapp_operator_rules() {
    let rules = [
        rule(
            "app.example.com",
            "webapps",
            "get;list;watch;create;update;patch;delete",
        ),
        rule("app.example.com", "webapps/status", "get;update;patch"),
        rule("app.example.com", "webapps/finalizers", "update"),
        rule(
            "apps",
            "deployments",
            "get;list;watch;create;update;patch;delete",
        ),
        rule("", "services", "get;list;watch;create;update;patch;delete"),
        rule("core", "events", "create;patch"),
    ];
    let expected = "\
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups:
  - \"\"
  resources:
  - events
  verbs:
  - create
  - patch
- apiGroups:
  - \"\"
  resources:
  - services
  verbs:
  - create
  - delete
  - get
  - list
  - patch
  - update
  - watch
- apiGroups:
  - app.example.com
  resources:
  - webapps
  verbs:
  - create
  - delete
  - get
  - list
  - patch
  - update
  - watch
- apiGroups:
  - app.example.com
  resources:
  - webapps/finalizers
  verbs:
  - update
- apiGroups:
  - app.example.com
  resources:
  - webapps/status
  verbs:
  - get
  - patch
  - update
- apiGroups:
  - apps
  resources:
  - deployments
  verbs:
  - create
  - delete
  - get
  - list
  - patch
  - update
  - watch
";
    assert_eq!(role_yaml(&rules), expected);
}

#[test]
fn merge_passes() {
    let rules = [
        // Pass 1: same target, verbs united (and deduplicated).
        rule("verbs", "thing", "get;get"),
        rule("verbs", "thing", "list"),
        // Pass 2: same groups and verbs, resources united.
        rule("res", "b", "create"),
        rule("res", "a;c", "create"),
        // Pass 3: same resources and verbs, groups united.
        rule("grp2", "shared", "delete"),
        rule("grp1", "shared", "delete"),
        // A partial overlap stays two rules: passes never revisit a merged rule.
        rule("x;y", "p;q", "watch"),
        rule("y", "q", "watch"),
        // Differing verbs keep rules apart.
        rule("apart", "one", "get"),
        rule("apart", "two", "list"),
    ];
    let expected = "\
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups:
  - apart
  resources:
  - one
  verbs:
  - get
- apiGroups:
  - apart
  resources:
  - two
  verbs:
  - list
- apiGroups:
  - grp1
  - grp2
  resources:
  - shared
  verbs:
  - delete
- apiGroups:
  - res
  resources:
  - a
  - b
  - c
  verbs:
  - create
- apiGroups:
  - verbs
  resources:
  - thing
  verbs:
  - get
  - list
- apiGroups:
  - x
  - \"y\"
  resources:
  - p
  - q
  verbs:
  - watch
- apiGroups:
  - \"y\"
  resources:
  - q
  verbs:
  - watch
";
    assert_eq!(role_yaml(&rules), expected);
}

#[test]
fn urls_and_resource_names() {
    let urls = |u: &str| Rule {
        urls: list(u),
        verbs: list("get"),
        ..Rule::default()
    };
    let named = Rule {
        resource_names: list("b;a"),
        ..rule("", "configmaps", "get;update")
    };
    let rules = [
        urls("/metrics"),
        urls("/healthz;/metrics"),
        rule("", "configmaps", "list"),
        named,
    ];
    // Pass 4 unites the URLs; resource names make a separate rule. Sort keys:
    // " +  +  + /healthz&/metrics", " + configmaps +  + ", " + configmaps + a&b + ".
    let expected = "\
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- nonResourceURLs:
  - /healthz
  - /metrics
  verbs:
  - get
- apiGroups:
  - \"\"
  resources:
  - configmaps
  verbs:
  - list
- apiGroups:
  - \"\"
  resourceNames:
  - a
  - b
  resources:
  - configmaps
  verbs:
  - get
  - update
";
    assert_eq!(role_yaml(&rules), expected);
}

#[test]
fn star_verb_absorbs_the_others() {
    let rules = [
        rule("batch", "jobs", "get;update"),
        rule("batch", "jobs", "*"),
        rule("batch", "cronjobs", "*"),
    ];
    // jobs' verbs are {*, get, update} until the end, so jobs and cronjobs do not merge.
    let expected = "\
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups:
  - batch
  resources:
  - cronjobs
  verbs:
  - '*'
- apiGroups:
  - batch
  resources:
  - jobs
  verbs:
  - '*'
";
    assert_eq!(role_yaml(&rules), expected);
}

#[test]
fn namespaced_roles_and_role_names() {
    let namespaced = |ns: &str, name: Option<&str>, r: Rule| Rule {
        namespace: Some(ns.to_owned()),
        role_name: name.map(str::to_owned),
        ..r
    };
    let rules = [
        namespaced("zoo", None, rule("art", "jobs", "get")),
        namespaced(
            "system",
            Some("leader-election"),
            rule("coordination.k8s.io", "leases", "get"),
        ),
        namespaced("system", None, rule("", "configmaps", "get")),
        Rule {
            role_name: Some("aggregate-view".into()),
            ..rule("app", "webapps", "get")
        },
        rule("app", "webapps", "list"),
        namespaced("zoo", None, rule("wave", "jobs", "get")),
    ];
    // Ordered by (namespace, role name): the two ClusterRoles ("" namespace) first.
    let expected = "\
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: aggregate-view
rules:
- apiGroups:
  - app
  resources:
  - webapps
  verbs:
  - get
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups:
  - app
  resources:
  - webapps
  verbs:
  - list
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: leader-election
  namespace: system
rules:
- apiGroups:
  - coordination.k8s.io
  resources:
  - leases
  verbs:
  - get
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: manager-role
  namespace: system
rules:
- apiGroups:
  - \"\"
  resources:
  - configmaps
  verbs:
  - get
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: manager-role
  namespace: zoo
rules:
- apiGroups:
  - art
  - wave
  resources:
  - jobs
  verbs:
  - get
";
    assert_eq!(role_yaml(&rules), expected);
}

#[test]
fn rules_without_groups_or_verbs() {
    // No `groups` means no apiGroups field; no verbs is written as `verbs: null`.
    let rules = [Rule {
        resources: list("pods"),
        ..Rule::default()
    }];
    let expected = "\
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- resources:
  - pods
  verbs: null
";
    assert_eq!(role_yaml(&rules), expected);
}

#[test]
fn no_rules_no_roles() {
    assert!(role_documents(&[], "manager-role").is_empty());
}
