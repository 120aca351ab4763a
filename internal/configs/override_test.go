package configs

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func TestOverrideFiles(t *testing.T) {
	sources := map[string][]byte{
		"main.tf": []byte(`
variable "name" {
  default = "base"
  type    = string
}
locals {
  l = "base"
}
resource "terraform_data" "a" {
  input            = var.name
  triggers_replace = ["x"]
  lifecycle {
    ignore_changes        = [triggers_replace]
    create_before_destroy = false
  }
}
module "m" {
  source = "./m"
}
output "o" {
  value = 1
}
`),
		"z_override.tf": []byte(`
variable "name" {
  default = "over"
}
locals {
  l = "over"
}
resource "terraform_data" "a" {
  input = "fixed"
  lifecycle {
    create_before_destroy = true
  }
}
module "m" {
  source = "./n"
}
output "o" {
  sensitive = true
}
`),
		"override.tf.json": []byte(`{"output": {"o": {"description": "from json"}}}`),
	}
	mod, diags := NewParser().LoadModuleFromSources(".", sources)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v := mod.Variables["name"]
	if !v.Default.RawEquals(cty.StringVal("over")) || v.Type != cty.String {
		t.Errorf("variable: default %#v, type %#v", v.Default, v.Type)
	}
	if got, _ := mod.Locals["l"].Expr.Value(nil); !got.RawEquals(cty.StringVal("over")) {
		t.Errorf("local: %#v", got)
	}
	r := mod.ManagedResources["terraform_data.a"]
	if !r.Managed.CreateBeforeDestroy || len(r.Managed.IgnoreChanges) != 1 {
		t.Errorf("lifecycle not merged: cbd %v, ignore_changes %d", r.Managed.CreateBeforeDestroy, len(r.Managed.IgnoreChanges))
	}
	attrs, _ := r.Config.JustAttributes()
	if got, _ := attrs["input"].Expr.Value(nil); !got.RawEquals(cty.StringVal("fixed")) {
		t.Errorf("input: %#v", got)
	}
	if _, ok := attrs["triggers_replace"]; !ok {
		t.Errorf("triggers_replace from the base lost")
	}
	if mod.ModuleCalls["m"].Source != "./n" {
		t.Errorf("module source %q", mod.ModuleCalls["m"].Source)
	}
	o := mod.Outputs["o"]
	if !o.Sensitive || o.Description != "from json" {
		t.Errorf("output: sensitive %v, description %q", o.Sensitive, o.Description)
	}
}

func TestOverrideWithoutBase(t *testing.T) {
	tests := map[string]string{
		`resource "terraform_data" "nope" {}`:  "Missing resource to override",
		`data "terraform_remote_state" "x" {}`: "Missing data resource to override",
		`variable "v" {}`:                      "Missing base variable declaration to override",
		`output "o" {}`:                        "Missing base output definition to override",
		`module "m" {}`:                        "Missing module call to override",
		"locals {\n  x = 1\n}":                 "Missing base local value definition to override",
		`moved {}`:                             "Unsupported override",
	}
	for src, want := range tests {
		_, diags := NewParser().LoadModuleFromSources(".", map[string][]byte{"main.tf": []byte(""), "a_override.tf": []byte(src)})
		if len(diags) != 1 || diags[0].Summary != want || diags[0].Severity != hcl.DiagError {
			t.Errorf("%s: got %v, want %q", src, diags, want)
		}
	}
}

func TestIsOverrideFile(t *testing.T) {
	for name, want := range map[string]bool{"override.tf": true, "override.tf.json": true, "a_override.tf": true, "b_override.tf.json": true, "main.tf": false, "overrides.tf": false, "my-override.tf": false} {
		if got := IsOverrideFile(name); got != want {
			t.Errorf("IsOverrideFile(%q) = %v", name, got)
		}
	}
}
