//! controller-gen's flattener (`pkg/crd/flatten.go`): references are replaced by their
//! definitions merged with the use site (`preserveFields`), then every `allOf` is merged into its
//! parent (`flattenAllOfInto`), hoisting what the two sides both set into a new `allOf`.

use std::collections::BTreeMap;

use super::{Definitions, JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool};

/// `schema` with every reference into `defs` resolved and every `allOf` merged: the schema a
/// CRD embeds.
pub fn flatten(defs: &Definitions, schema: JSONSchemaProps) -> JSONSchemaProps {
    let mut cache = BTreeMap::new();
    let mut schema = resolve(defs, schema, &mut cache);
    merge_all_of(&mut schema);
    schema
}

fn resolve(
    defs: &Definitions,
    mut schema: JSONSchemaProps,
    cache: &mut BTreeMap<String, JSONSchemaProps>,
) -> JSONSchemaProps {
    if let Some(reference) = schema.ref_path.clone() {
        let definition = match cache.get(&reference) {
            Some(resolved) => resolved.clone(),
            None => {
                let definition = defs
                    .get(&reference)
                    .unwrap_or_else(|| panic!("webop: no schema definition for {reference}"))
                    .clone();
                let resolved = resolve(defs, definition, cache);
                cache.insert(reference, resolved.clone());
                resolved
            }
        };
        return preserve_fields(definition, schema);
    }
    for_each_child(&mut schema, &mut |child| {
        *child = resolve(defs, std::mem::take(child), cache);
    });
    schema
}

/// controller-gen's `preserveFields`: the definition and the use site become the two branches
/// of an `allOf`; the use site's description, title, external docs and example win when set.
fn preserve_fields(definition: JSONSchemaProps, mut use_site: JSONSchemaProps) -> JSONSchemaProps {
    let description = use_site.description.take().filter(|d| !d.is_empty());
    let title = use_site.title.take().filter(|t| !t.is_empty());
    let external_docs = use_site.external_docs.take();
    let example = use_site.example.take();
    use_site.ref_path = None;
    JSONSchemaProps {
        description: description.or_else(|| definition.description.clone()),
        title: title.or_else(|| definition.title.clone()),
        external_docs: external_docs.or_else(|| definition.external_docs.clone()),
        example: example.or_else(|| definition.example.clone()),
        all_of: Some(vec![definition, use_site]),
        ..JSONSchemaProps::default()
    }
}

/// The children `EditSchema` walks.
fn for_each_child(schema: &mut JSONSchemaProps, f: &mut impl FnMut(&mut JSONSchemaProps)) {
    match &mut schema.items {
        Some(JSONSchemaPropsOrArray::Schema(items)) => f(items),
        Some(JSONSchemaPropsOrArray::Schemas(list)) => list.iter_mut().for_each(&mut *f),
        None => {}
    }
    for list in [&mut schema.all_of, &mut schema.one_of, &mut schema.any_of]
        .into_iter()
        .flatten()
    {
        list.iter_mut().for_each(&mut *f);
    }
    if let Some(not) = &mut schema.not {
        f(not);
    }
    for map in [
        &mut schema.properties,
        &mut schema.pattern_properties,
        &mut schema.definitions,
    ]
    .into_iter()
    .flatten()
    {
        map.values_mut().for_each(&mut *f);
    }
    for more in [
        &mut schema.additional_properties,
        &mut schema.additional_items,
    ]
    .into_iter()
    .flatten()
    {
        if let JSONSchemaPropsOrBool::Schema(s) = more {
            f(s);
        }
    }
}

/// controller-gen's `allOfVisitor`, top down: a node's `allOf` is merged into it, then its
/// children (including any `allOf` the merge hoisted) are visited.
fn merge_all_of(schema: &mut JSONSchemaProps) {
    if let Some(branches) = schema.all_of.take() {
        for branch in branches {
            merge_into(schema, branch);
        }
    }
    for_each_child(schema, &mut merge_all_of);
}

fn zero_str(value: &Option<String>) -> bool {
    value.as_deref().is_none_or(str::is_empty)
}

fn zero_bool(value: &Option<bool>) -> bool {
    !value.unwrap_or(false)
}

/// controller-gen's `flattenAllOfInto`.
fn merge_into(dst: &mut JSONSchemaProps, mut src: JSONSchemaProps) {
    if let Some(branches) = src.all_of.take() {
        for branch in branches {
            merge_into(dst, branch);
        }
    }
    let mut dst_rest = JSONSchemaProps::default();
    let mut src_rest = JSONSchemaProps::default();
    let mut hoisted = false;

    // Go value fields (strings, bools): equal values agree; different ones are hoisted.
    macro_rules! value {
        ($zero:ident: $($field:ident),+) => {$(
            if !$zero(&src.$field) {
                if $zero(&dst.$field) {
                    dst.$field = src.$field.take();
                } else if dst.$field != src.$field {
                    hoisted = true;
                    src_rest.$field = src.$field.take();
                    dst_rest.$field = dst.$field.take();
                }
            }
        )+};
    }
    // Go pointer, slice and map fields: two set values never compare equal, so they are hoisted.
    macro_rules! hoist {
        ($($field:ident),+) => {$(
            if src.$field.is_some() {
                if dst.$field.is_none() {
                    dst.$field = src.$field.take();
                } else {
                    hoisted = true;
                    src_rest.$field = src.$field.take();
                    dst_rest.$field = dst.$field.take();
                }
            }
        )+};
    }

    value!(zero_str: id, schema, format, pattern);
    value!(zero_bool: exclusive_maximum, exclusive_minimum, unique_items, nullable,
        x_kubernetes_embedded_resource, x_kubernetes_int_or_string);
    hoist!(
        ref_path,
        default,
        maximum,
        minimum,
        max_length,
        min_length,
        max_items,
        min_items,
        multiple_of,
        max_properties,
        min_properties,
        items,
        not,
        additional_items,
        one_of,
        any_of,
        pattern_properties,
        dependencies,
        definitions,
        x_kubernetes_list_map_keys,
        x_kubernetes_list_type
    );

    if !zero_str(&src.type_) {
        if zero_str(&dst.type_) {
            dst.type_ = src.type_.take();
        } else if dst.type_ != src.type_ {
            panic!(
                "webop: conflicting types in allOf branches in schema: {} vs {} (a field's `type` attribute disagrees with its type)",
                dst.type_.as_deref().unwrap_or_default(),
                src.type_.as_deref().unwrap_or_default()
            );
        }
    }
    if dst.enum_.as_ref().is_none_or(Vec::is_empty)
        && src.enum_.as_ref().is_some_and(|e| !e.is_empty())
    {
        dst.enum_ = src.enum_.take();
    }
    if let Some(src_properties) = src.properties.take() {
        match &mut dst.properties {
            None => dst.properties = Some(src_properties),
            Some(dst_properties) => {
                for (name, property) in src_properties {
                    match dst_properties.get_mut(&name) {
                        Some(existing) => merge_into(existing, property),
                        None => {
                            dst_properties.insert(name, property);
                        }
                    }
                }
            }
        }
    }
    if let Some(required) = src.required.take() {
        dst.required.get_or_insert_with(Vec::new).extend(required);
    }
    match (
        src.additional_properties.take(),
        &mut dst.additional_properties,
    ) {
        (None, _) => {}
        (Some(src_more), None) => dst.additional_properties = Some(src_more),
        (Some(JSONSchemaPropsOrBool::Schema(src_schema)), Some(dst_more)) => {
            if let JSONSchemaPropsOrBool::Bool(_) = dst_more {
                *dst_more = JSONSchemaPropsOrBool::Schema(Box::default());
            }
            if let JSONSchemaPropsOrBool::Schema(dst_schema) = dst_more {
                merge_into(dst_schema, *src_schema);
            }
        }
        (Some(JSONSchemaPropsOrBool::Bool(_)), Some(_)) => {}
    }
    if src.x_kubernetes_preserve_unknown_fields.is_some() {
        dst.x_kubernetes_preserve_unknown_fields = src.x_kubernetes_preserve_unknown_fields;
    }
    if src.x_kubernetes_map_type.is_some() {
        dst.x_kubernetes_map_type = src.x_kubernetes_map_type.take();
    }
    if let Some(mut rules) = src.x_kubernetes_validations.take() {
        // The use site's rules come first.
        rules.extend(dst.x_kubernetes_validations.take().unwrap_or_default());
        dst.x_kubernetes_validations = Some(rules);
    }

    if hoisted {
        dst.all_of
            .get_or_insert_with(Vec::new)
            .extend([dst_rest, src_rest]);
    }
    if let Some(required) = &mut dst.required {
        required.sort();
        required.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Marker, ValidationRule, apply, typed};

    fn with(schema: JSONSchemaProps, markers: &[Marker]) -> JSONSchemaProps {
        let mut schema = schema;
        apply(&mut schema, markers).unwrap();
        schema
    }

    fn define(defs: &mut Definitions, definition: JSONSchemaProps) -> JSONSchemaProps {
        struct Named;
        defs.named::<Named>(JSONSchemaProps::default(), |_| definition)
    }

    #[test]
    fn the_use_site_description_wins_and_the_definitions_is_the_fallback() {
        let mut defs = Definitions::default();
        let definition = JSONSchemaProps {
            description: Some("type doc".into()),
            ..typed("object", None)
        };
        let mut reference = define(&mut defs, definition);
        assert_eq!(
            flatten(&defs, reference.clone()).description.as_deref(),
            Some("type doc")
        );
        reference.description = Some("field doc".into());
        let flat = flatten(&defs, reference);
        assert_eq!(flat.description.as_deref(), Some("field doc"));
        assert_eq!(
            (flat.type_.as_deref(), flat.all_of, flat.ref_path),
            (Some("object"), None, None)
        );
    }

    #[test]
    fn bounds_set_on_both_sides_are_hoisted_into_all_of() {
        let mut defs = Definitions::default();
        let reference = define(
            &mut defs,
            with(typed("integer", None), &[Marker::Maximum(5.0)]),
        );
        let reference = JSONSchemaProps {
            type_: Some("integer".into()),
            ..reference
        };
        let flat = flatten(
            &defs,
            with(reference, &[Marker::Maximum(10.0), Marker::Minimum(1.0)]),
        );
        assert_eq!(flat.maximum, None);
        assert_eq!(flat.minimum, Some(1.0));
        let all_of = flat.all_of.unwrap();
        assert_eq!(
            (all_of[0].maximum, all_of[1].maximum),
            (Some(5.0), Some(10.0))
        );
    }

    #[test]
    fn use_site_cel_rules_come_first_and_the_definitions_enum_wins() {
        let rule = |r: &str| ValidationRule {
            rule: r.into(),
            ..ValidationRule::default()
        };
        let mut defs = Definitions::default();
        let definition = JSONSchemaProps {
            x_kubernetes_validations: Some(vec![rule("type")]),
            ..with(typed("string", None), &[Marker::Enum(&[r#""A""#])])
        };
        let reference = define(&mut defs, definition);
        let use_site = JSONSchemaProps {
            x_kubernetes_validations: Some(vec![rule("field")]),
            type_: Some("string".into()),
            ..with(reference, &[Marker::Enum(&[r#""B""#])])
        };
        let flat = flatten(&defs, use_site);
        let rules: Vec<_> = flat
            .x_kubernetes_validations
            .unwrap()
            .into_iter()
            .map(|r| r.rule)
            .collect();
        assert_eq!(rules, ["field", "type"]);
        assert_eq!(flat.enum_.unwrap()[0].0, "A");
    }

    #[test]
    fn embedded_all_of_merges_properties_and_required() {
        let a = JSONSchemaProps {
            properties: Some(BTreeMap::from([("a".to_owned(), typed("string", None))])),
            required: Some(vec!["a".into()]),
            ..typed("object", None)
        };
        let mut parent = JSONSchemaProps {
            properties: Some(BTreeMap::from([("b".to_owned(), typed("string", None))])),
            required: Some(vec!["b".into()]),
            all_of: Some(vec![a]),
            ..typed("object", None)
        };
        merge_all_of(&mut parent);
        assert_eq!(parent.required, Some(vec!["a".to_owned(), "b".to_owned()]));
        assert_eq!(parent.properties.unwrap().len(), 2);
        assert_eq!(parent.all_of, None);
    }

    #[test]
    #[should_panic(expected = "conflicting types in allOf branches in schema: object vs string")]
    fn conflicting_types_are_refused() {
        let mut defs = Definitions::default();
        let reference = define(&mut defs, typed("object", None));
        flatten(&defs, with(reference, &[Marker::Type("string")]));
    }
}
