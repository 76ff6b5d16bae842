//! controller-gen's `NormalizeRules` (pkg/rbac/parser.go, v0.21): the policy rules of one role,
//! merged, deduplicated and sorted.
//!
//! The passes, in order:
//! 1. rules with the same groups, resources, resource names and URLs: verbs united;
//! 2. same groups, resource names, URLs and verbs: resources united;
//! 3. same resources, resource names, URLs and verbs: groups united;
//! 4. same groups, resources, resource names and verbs: URLs united;
//!
//! then rules sorted by `groups + resources + resourceNames + urls` (each list sorted and
//! `&`-joined), and a rule whose verbs include `*` reduced to `*`.
//!
//! One deliberate difference: when a pass produces two rules with the same groups, resources,
//! resource names and URLs (possible when a single `#[rbac]` names several groups), controller-gen
//! keeps one of them at random (Go map order) and drops the other's verbs; webop unites their
//! verbs, as pass 1 does.

use std::collections::BTreeMap;

/// One rule being normalised: the fields of a Kubernetes `PolicyRule`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Policy {
    pub groups: Vec<String>,
    pub resources: Vec<String>,
    pub resource_names: Vec<String>,
    pub urls: Vec<String>,
    pub verbs: Vec<String>,
}

/// What a rule applies to (controller-gen's `ruleKey`), each list sorted and `&`-joined.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RuleKey {
    groups: String,
    resources: String,
    resource_names: String,
    urls: String,
}

impl RuleKey {
    /// controller-gen's `ruleKey.String()`, the sort key of the final rules.
    fn sort_key(&self) -> String {
        format!(
            "{} + {} + {} + {}",
            self.groups, self.resources, self.resource_names, self.urls
        )
    }
}

impl Policy {
    fn normalize(&mut self) {
        for list in [
            &mut self.groups,
            &mut self.resources,
            &mut self.resource_names,
            &mut self.urls,
            &mut self.verbs,
        ] {
            dedup_sort(list);
        }
    }

    fn key(&mut self) -> RuleKey {
        self.normalize();
        RuleKey {
            groups: self.groups.join("&"),
            resources: self.resources.join("&"),
            resource_names: self.resource_names.join("&"),
            urls: self.urls.join("&"),
        }
    }

    fn add_verbs(&mut self, verbs: &[String]) {
        self.verbs.extend_from_slice(verbs);
        dedup_sort(&mut self.verbs);
    }
}

fn dedup_sort(list: &mut Vec<String>) {
    list.sort();
    list.dedup();
}

/// The list a merge pass unites, and the fields that must agree for two rules to merge.
#[derive(Clone, Copy)]
enum Pass {
    Resources,
    Groups,
    Urls,
}

impl Pass {
    fn grouping_key(self, policy: &mut Policy) -> String {
        let key = policy.key();
        let verbs = policy.verbs.join("&");
        let (a, b, c) = match self {
            Pass::Resources => (key.groups, key.resource_names, key.urls),
            Pass::Groups => (key.resources, key.resource_names, key.urls),
            Pass::Urls => (key.groups, key.resources, key.resource_names),
        };
        format!("{a} + {b} + {c} + {verbs}")
    }

    fn list(self, policy: &mut Policy) -> &mut Vec<String> {
        match self {
            Pass::Resources => &mut policy.resources,
            Pass::Groups => &mut policy.groups,
            Pass::Urls => &mut policy.urls,
        }
    }
}

/// The policy rules controller-gen writes for one role, from its expanded rules (one resource
/// each, or none for non-resource URLs).
pub(super) fn normalize_rules(rules: Vec<Policy>) -> Vec<Policy> {
    let mut by_key: BTreeMap<RuleKey, Policy> = BTreeMap::new();
    for mut rule in rules {
        // "core" is accepted as the name of the core group, whose real name is "".
        for group in &mut rule.groups {
            if group == "core" {
                group.clear();
            }
        }
        insert_uniting_verbs(&mut by_key, rule);
    }
    for pass in [Pass::Resources, Pass::Groups, Pass::Urls] {
        by_key = merge_pass(by_key, pass);
    }

    let mut sorted: Vec<(String, Policy)> = by_key
        .into_iter()
        .map(|(key, policy)| (key.sort_key(), policy))
        .collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted
        .into_iter()
        .map(|(_, mut policy)| {
            if policy.verbs.iter().any(|verb| verb == "*") {
                policy.verbs = vec!["*".to_owned()];
            }
            policy
        })
        .collect()
}

fn insert_uniting_verbs(by_key: &mut BTreeMap<RuleKey, Policy>, mut rule: Policy) {
    let key = rule.key();
    match by_key.get_mut(&key) {
        Some(existing) => existing.add_verbs(&rule.verbs),
        None => {
            by_key.insert(key, rule);
        }
    }
}

fn merge_pass(by_key: BTreeMap<RuleKey, Policy>, pass: Pass) -> BTreeMap<RuleKey, Policy> {
    let mut groups: BTreeMap<String, Policy> = BTreeMap::new();
    for mut rule in by_key.into_values() {
        let grouping_key = pass.grouping_key(&mut rule);
        match groups.get_mut(&grouping_key) {
            Some(first) => {
                let extra = std::mem::take(pass.list(&mut rule));
                pass.list(first).extend(extra);
            }
            None => {
                groups.insert(grouping_key, rule);
            }
        }
    }
    let mut merged = BTreeMap::new();
    for rule in groups.into_values() {
        insert_uniting_verbs(&mut merged, rule);
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(groups: &[&str], resources: &[&str], verbs: &[&str]) -> Policy {
        let strings = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect();
        Policy {
            groups: strings(groups),
            resources: strings(resources),
            verbs: strings(verbs),
            ..Policy::default()
        }
    }

    #[test]
    fn same_target_unites_verbs() {
        let merged = normalize_rules(vec![
            policy(&["apps"], &["deployments"], &["list", "get"]),
            policy(&["apps"], &["deployments"], &["get", "watch"]),
        ]);
        assert_eq!(
            merged,
            [policy(
                &["apps"],
                &["deployments"],
                &["get", "list", "watch"]
            )]
        );
    }

    #[test]
    fn passes_unite_resources_then_groups() {
        let merged = normalize_rules(vec![
            policy(&["a"], &["x"], &["get"]),
            policy(&["a"], &["y"], &["get"]),
            policy(&["b"], &["x"], &["get"]),
            policy(&["b"], &["y"], &["get"]),
        ]);
        assert_eq!(merged, [policy(&["a", "b"], &["x", "y"], &["get"])]);
    }

    #[test]
    fn star_collapses_after_merging() {
        let merged = normalize_rules(vec![
            policy(&["g"], &["r"], &["get", "patch"]),
            policy(&["g"], &["r"], &["*"]),
            policy(&["h"], &["r"], &["*"]),
        ]);
        // g's verbs become {*, get, patch}, so g and h do not merge; both then read `*`.
        assert_eq!(
            merged,
            [
                policy(&["g"], &["r"], &["*"]),
                policy(&["h"], &["r"], &["*"])
            ]
        );
    }

    #[test]
    fn colliding_targets_keep_all_verbs() {
        // Pass 3 turns {a/x get, b/x get} into "a&b / x get", which collides with "a&b / x list".
        let merged = normalize_rules(vec![
            policy(&["a"], &["x"], &["get"]),
            policy(&["b"], &["x"], &["get"]),
            policy(&["a", "b"], &["x"], &["list"]),
        ]);
        assert_eq!(merged, [policy(&["a", "b"], &["x"], &["get", "list"])]);
    }
}
