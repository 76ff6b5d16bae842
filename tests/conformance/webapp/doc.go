// Package webapp is the Go source of the webapp case (tests/conformance/webapp.rs): the seed
// tutorial's WebApp API, and the RBAC markers of the golden operator's reconciler
// (testdata/webapp-operator/src/controller/webapp_controller.rs).
// +groupName=app.example.com
// +versionName=v1
package webapp
