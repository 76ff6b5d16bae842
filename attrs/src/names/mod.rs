//! Names of kinds: the rules a kind, group and version must follow (`rules`), and the plural
//! and singular resource names. Shared by the derives (at compile time) and the CLI.
//!
//! kubebuilder and controller-gen both pluralise with gobuffalo/flect v1.0.3 (ported in
//! `flect`), but not identically: kubebuilder lower-cases the kind first
//! (`flect.Pluralize(strings.ToLower(kind))`, the `plural` of `PROJECT`), controller-gen
//! lower-cases the result (`strings.ToLower(flect.Pluralize(kind))`, the CRD's
//! `spec.names.plural` when no plural is given). They agree for most kinds (`WebApp` →
//! `webapps`) and differ where flect sees the word parts: `SuperbOx` is `superboxes` for
//! kubebuilder but `superboxen` for controller-gen.

mod flect;
mod flect_data;
mod rules;

pub use rules::*;

/// The plural resource name kubebuilder gives a kind (`create api` without `--plural`, the
/// `plural` of `PROJECT`): flect's `Pluralize` of the lower-cased kind (`WebApp` → `webapps`,
/// `Busybox` → `busyboxes`, `HealthCheckPolicy` → `healthcheckpolicies`).
///
/// Faithful to flect's quirks: a kind that is a whole acronym keeps its lower-case spelling and
/// gets the upper-case plural appended (`DNS` → `dnsDNSes`), which is not a valid resource name;
/// kubebuilder rejects it and so should callers (ask for an explicit plural).
pub fn plural(kind: &str) -> String {
    flect::pluralize(&kind.to_lowercase())
}

/// The plural controller-gen writes into a CRD when the kind has no explicit plural:
/// flect's `Pluralize` of the kind as written, lower-cased (`WebApp` → `webapps`,
/// `MyDNS` → `mydnses`).
pub fn crd_default_plural(kind: &str) -> String {
    flect::pluralize(kind).to_lowercase()
}

/// The singular resource name of a kind, as kubebuilder and controller-gen derive it: the kind
/// lower-cased (`WebApp` → `webapp`).
pub fn singular(kind: &str) -> String {
    kind.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kinds from kubebuilder's and controller-tools' sample projects and tutorials, and kinds
    /// that exercise each kind of flect rule.
    const KINDS: &[(&str, &str)] = &[
        // kubebuilder testdata (project-v4*) and the WebApp tutorial.
        ("WebApp", "webapps"),
        ("Captain", "captains"),
        ("FirstMate", "firstmates"),
        ("Admiral", "admirals"),
        ("Sailor", "sailors"),
        ("Navigator", "navigators"),
        ("Busybox", "busyboxes"),
        ("Memcached", "memcacheds"),
        ("Wordpress", "wordpresses"),
        ("HealthCheckPolicy", "healthcheckpolicies"),
        ("Kraken", "krakens"),
        ("Leviathan", "leviathans"),
        ("Prawn", "prawns"),
        ("Cruiser", "cruisers"),
        ("Destroyer", "destroyers"),
        ("Frigate", "frigates"),
        ("Bar", "bars"),
        // controller-tools testdata.
        ("CronJob", "cronjobs"),
        ("Job", "jobs"),
        ("TestQuota", "testquotas"),
        ("VersionedResource", "versionedresources"),
        // Suffix rules.
        ("Gateway", "gateways"),
        ("Proxy", "proxies"),
        ("Key", "keys"),
        ("Status", "statuses"),
        ("Bus", "buses"),
        ("Address", "addresses"),
        ("Ingress", "ingresses"),
        ("Quiz", "quizzes"),
        ("Leaf", "leaves"),
        ("Knife", "knives"),
        ("Hero", "heroes"),
        ("Photo", "photos"),
        ("Matrix", "matrices"),
        ("Analysis", "analyses"),
        ("Branch", "branches"),
        ("Plateau", "plateaux"),
        ("Polyhedron", "polyhedra"),
        ("Bacterium", "bacteria"),
        ("Museum", "museums"),
        ("Objective", "objectives"),
        // Dictionary words, alone and as the end of a kind.
        ("Child", "children"),
        ("Person", "people"),
        ("SalesPerson", "salespeople"),
        ("Mouse", "mice"),
        ("Index", "indices"),
        ("Database", "databases"),
        ("Octopus", "octupuses"),
        ("Quota", "quotas"),
        ("Ox", "oxen"),
        // Already plural or uncountable.
        ("Series", "series"),
        ("News", "news"),
        ("Equipment", "equipment"),
        ("Pods", "pods"),
        ("Data", "data"),
        // Acronyms.
        ("API", "apis"),
        ("URL", "urls"),
        ("DNS", "dnsDNSes"),
    ];

    #[test]
    fn kubebuilder_plurals() {
        for (kind, expected) in KINDS {
            assert_eq!(plural(kind), *expected, "plural of {kind}");
        }
    }

    #[test]
    fn controller_gen_plurals() {
        for (kind, expected) in [
            ("WebApp", "webapps"),
            ("TestQuota", "testquotas"),
            ("CronJob", "cronjobs"),
            ("HealthCheckPolicy", "healthcheckpolicies"),
            ("Busybox", "busyboxes"),
            ("SuperbOx", "superboxen"),
            ("MyDNS", "mydnses"),
            ("DNS", "dnses"),
            ("API", "apis"),
            ("SalesPerson", "salespeople"),
        ] {
            assert_eq!(
                crd_default_plural(kind),
                expected,
                "controller-gen plural of {kind}"
            );
        }
        assert_eq!(plural("SuperbOx"), "superboxes");
        assert_eq!(plural("MyDNS"), "mydns");
    }

    #[test]
    fn singulars() {
        assert_eq!(singular("WebApp"), "webapp");
        assert_eq!(singular("HealthCheckPolicy"), "healthcheckpolicy");
    }
}
