// Package tfplugin6 holds the subset of Terraform's provider plugin
// protocol version 6 that strata uses (tfplugin6.proto) and the Go code
// protoc generates from it (tfplugin6.pb.go, tfplugin6_grpc.pb.go). Do
// not edit the generated files: change the .proto file and run
// `make proto`. Only internal/providers/plugin and its convert package
// import this package.
package tfplugin6
