// Package jsonprovider renders provider schemas in Terraform's JSON format
// ("providers schema -json"), with its fields in Terraform's order so
// that the document is byte for byte what terraform prints.
//
// It imports addrs, configschema, providers and jsonfunction; only the
// command package uses it.
package jsonprovider
