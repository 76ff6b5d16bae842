
/// The scaffolded defaulter sets nothing, so the sample comes out as it went in.
/// TODO(user): once `default` sets fields, assert their values here instead.
#[tokio::test]
async fn the_defaulter_admits_the_sample_and_leaves_it_as_it_is() {
    let mut {{ kind_var }} = sample();
    let before = serde_json::to_value(&{{ kind_var }}).unwrap();
    webop::webhook::CustomDefaulter::default(&{{ kind }}CustomDefaulter, &mut {{ kind_var }})
        .await
        .expect("the sample is admitted");
    assert_eq!(serde_json::to_value(&{{ kind_var }}).unwrap(), before);
}
