// Package addrs holds the typed addresses strata uses for things in
// configuration and state: module instances, resources and their instances,
// instance keys, outputs and providers, with parsing and string forms that
// match Terraform's.
//
// It is a leaf package: it imports nothing from strata.
package addrs
