
/// The sample is valid: it is admitted on create, update and delete, with no warnings.
/// TODO(user): add the objects your validation denies, and check the denial's field errors.
#[tokio::test]
async fn the_validator_admits_the_sample() {
    use webop::webhook::CustomValidator;
    let {{ kind_var }} = sample();
    let validator = {{ kind }}CustomValidator;
    let warnings = [
        validator.validate_create(&{{ kind_var }}).await,
        validator.validate_update(&{{ kind_var }}, &{{ kind_var }}).await,
        validator.validate_delete(&{{ kind_var }}).await,
    ];
    for (verb, warnings) in ["create", "update", "delete"].into_iter().zip(warnings) {
        match warnings {
            Ok(warnings) => assert!(warnings.is_empty(), "{verb}: warnings {warnings:?}"),
            Err(_) => panic!("{verb}: the sample was denied"),
        }
    }
}
