// Package terraform is the built-in provider terraform.io/builtin/terraform.
// It offers the terraform_data managed resource, which stores a value and
// can trigger replacement of other resources through replace_triggered_by.
package terraform
