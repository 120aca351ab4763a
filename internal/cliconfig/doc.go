// Package cliconfig reads Terraform's CLI configuration (TF_CLI_CONFIG_FILE,
// ~/.terraformrc and ~/.terraform.d/*.tfrc[.json]): provider installation
// methods, development overrides, the plugin cache, host service overrides
// and credentials, and builds the provider installation source it
// describes.
//
// It imports only addrs and getproviders; internal/command uses it, and
// nothing below command may import it.
package cliconfig
