// Package tfplugin5 holds the subset of Terraform's provider plugin
// protocol version 5 that strata uses (tfplugin5.proto) and the Go code
// protoc generates from it (tfplugin5.pb.go, tfplugin5_grpc.pb.go). Do
// not edit the generated files: change the .proto file and run
// `make proto`. Only internal/providers/plugin and its convert package
// import this package.
package tfplugin5
