// Package plugin runs provider plugins built for Terraform (any binary named
// terraform-provider-NAME_vX.Y.Z) and adapts them to providers.Interface.
//
// NewClient (or Factory) starts the binary with hashicorp/go-plugin, using
// Terraform's handshake (its magic cookie, gRPC, protocol versions 5 and 6
// negotiated with the plugin), and returns a *Client that speaks tfplugin5
// or tfplugin6 to it. GetProviderSchema is asked once per Client. The
// provider's stderr is parsed as log output and shown when TF_LOG (or
// TF_LOG_PROVIDER) is set, in TF_LOG_PATH if that is set too; the end of it
// is kept so that a crash is reported with the provider's panic message.
// Close ends the process; CleanupClients ends every process not yet
// closed, as a command's last line of defence against orphans.
// FindInstalled finds the providers installed in a working directory's
// providers tree (.terraform/providers), which the caller names.
//
// Subpackages: convert translates between protocol messages and strata's
// types; proto/tfplugin5 and proto/tfplugin6 hold the protocol definitions
// and their generated code (`make proto`). The test providers it runs in
// its tests live in testdata/providers, a Go module of their own.
//
// This package is an adapter: it imports addrs, providers,
// configs/configschema and its own subpackages. Only internal/command,
// which chooses the provider factories, should import it.
package plugin
