// Package jsonfunction renders function signatures in Terraform's JSON
// format: the function_signatures of "metadata functions -json" and the
// functions of "providers schema -json".
//
// It imports only providers; the command packages use it.
package jsonfunction
