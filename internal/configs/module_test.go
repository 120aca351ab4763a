package configs

import (
	"testing"
)

func TestModule_duplicates(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files     map[string]string
		wantDiags []diag
	}{
		"variable": {
			files: map[string]string{"main.tf": "variable \"a\" {}\nvariable \"a\" {}\n"},
			wantDiags: []diag{
				errDiag("Duplicate variable declaration", "main.tf:2,1-2,13"),
			},
		},
		"variable across syntaxes": {
			files: map[string]string{
				"a.tf":      "variable \"a\" {}\n",
				"b.tf.json": `{"variable": {"a": {}}}`,
			},
			wantDiags: []diag{
				errDiag("Duplicate variable declaration", "b.tf.json:1,20-1,21"),
			},
		},
		"local": {
			files: map[string]string{"main.tf": "locals {\n  a = 1\n}\nlocals {\n  a = 1\n}\n"},
			wantDiags: []diag{
				errDiag("Duplicate local value definition", "main.tf:5,3-5,8"),
			},
		},
		"output": {
			files: map[string]string{
				"a.tf": "output \"o\" {\n  value = 1\n}\n",
				"b.tf": "output \"o\" {\n  value = 2\n}\n",
			},
			wantDiags: []diag{
				errDiag("Duplicate output definition", "b.tf:1,1-1,11"),
			},
		},
		"default provider configuration": {
			files: map[string]string{"main.tf": "provider \"aws\" {}\nprovider \"aws\" {}\n"},
			wantDiags: []diag{
				errDiag("Duplicate provider configuration", "main.tf:2,1-2,15"),
			},
		},
		"aliased provider configuration": {
			files: map[string]string{"main.tf": `
provider "aws" {
  alias = "west"
}
provider "aws" {
  alias = "west"
}
provider "aws" {
  alias = "east"
}
provider "aws" {}
`},
			wantDiags: []diag{
				errDiag("Duplicate provider configuration", "main.tf:5,1-5,15"),
			},
		},
		"managed resource": {
			files: map[string]string{"main.tf": `
resource "terraform_data" "a" {}
resource "terraform_data" "a" {}
resource "terraform_data" "b" {}
resource "other_data" "a" {}
`},
			wantDiags: []diag{
				errDiag(`Duplicate resource "terraform_data" configuration`, "main.tf:3,1-3,30"),
			},
		},
		"data resource": {
			files: map[string]string{"main.tf": `
data "terraform_remote_state" "a" {}
data "terraform_remote_state" "a" {}
`},
			wantDiags: []diag{
				errDiag(`Duplicate data "terraform_remote_state" configuration`, "main.tf:3,1-3,34"),
			},
		},
		"managed and data resources may share names": {
			files: map[string]string{"main.tf": `
resource "terraform_data" "a" {}
data "terraform_data" "a" {}
`},
		},
		"names may repeat across kinds": {
			files: map[string]string{"main.tf": `
variable "a" {}
locals {
  a = 1
}
output "a" {
  value = 1
}
provider "a" {}
resource "a" "a" {}
data "a" "a" {}
`},
		},
		"backend": {
			files: map[string]string{"main.tf": `
terraform {
  backend "local" {}
}
terraform {
  backend "local" {}
}
`},
			wantDiags: []diag{
				errDiag("Duplicate backend configuration", "main.tf:6,3-6,18"),
			},
		},
		"required_providers": {
			files: map[string]string{
				"a.tf": "terraform {\n  required_providers {}\n}\n",
				"b.tf": "terraform {\n  required_providers {}\n}\n",
			},
			wantDiags: []diag{
				errDiag("Duplicate required providers configuration", "b.tf:2,3-2,21"),
			},
		},
		"required_providers entry": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
    aws = { source = "hashicorp/aws" }
  }
}
`},
			wantDiags: []diag{
				errDiag("Attribute redefined", "main.tf:5,5-5,8"),
			},
		},
		"lifecycle": {
			files: map[string]string{"main.tf": `
resource "terraform_data" "a" {
  lifecycle {}
  lifecycle {}
}
`},
			wantDiags: []diag{
				errDiag("Duplicate lifecycle block", "main.tf:4,3-4,12"),
			},
		},
		"attributes": {
			files: map[string]string{"main.tf": `
variable "a" {
  default = 1
  default = 2
}
`},
			wantDiags: []diag{
				errDiag("Attribute redefined", "main.tf:4,3-4,10"),
			},
		},
		"three of a kind": {
			files: map[string]string{"main.tf": "variable \"a\" {}\nvariable \"a\" {}\nvariable \"a\" {}\n"},
			wantDiags: []diag{
				errDiag("Duplicate variable declaration", "main.tf:2,1-2,13"),
				errDiag("Duplicate variable declaration", "main.tf:3,1-3,13"),
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, diags := loadModuleSrc(t, tc.files)
			assertDiags(t, diags, tc.wantDiags)
		})
	}
}

func TestModule_unsupportedBlocks(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files     map[string]string
		wantDiags []diag
	}{
		"check": {
			files: map[string]string{"main.tf": `
check "c" {
  assert {
    condition     = local.ok
    error_message = "x"
  }
}
`},
		},
		"json": {
			files: map[string]string{"main.tf.json": `{
  "check": {"c": {}}
}`},
			wantDiags: []diag{
				errDiag("Zero assert blocks", "main.tf.json:2,18-2,19"),
			},
		},
		"unknown block type": {
			files: map[string]string{"main.tf": "foo {}\n"},
			wantDiags: []diag{
				errDiag("Unsupported block type", "main.tf:1,1-1,4"),
			},
		},
		"unknown block type in json": {
			files: map[string]string{"main.tf.json": `{"foo": {}}`},
			wantDiags: []diag{
				errDiag("Extraneous JSON object property", "main.tf.json:1,2-1,7"),
			},
		},
		"top-level argument": {
			files: map[string]string{"main.tf": "x = 1\n"},
			wantDiags: []diag{
				errDiag("Unsupported argument", "main.tf:1,1-1,2"),
			},
		},
		"wrong number of labels": {
			files: map[string]string{"main.tf": "variable {}\nlocals \"x\" {}\nresource \"a\" \"b\" \"c\" {}\n"},
			wantDiags: []diag{
				errDiag("Missing name for variable", "main.tf:1,10-1,11"),
				errDiag("Extraneous label for locals", "main.tf:2,8-2,11"),
				errDiag("Extraneous label for resource", "main.tf:3,18-3,21"),
			},
		},
		"supported blocks still load": {
			files: map[string]string{"main.tf": `
check "c" {
}
resource "terraform_data" "b" {}
`},
			wantDiags: []diag{errDiag("Zero assert blocks", "main.tf:2,1-2,10")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mod, diags := loadModuleSrc(t, tc.files)
			assertDiags(t, diags, tc.wantDiags)
			for _, d := range diags {
				if d.Severity == 0 || d.Subject == nil {
					t.Errorf("diagnostic %q has no severity or no range", d.Summary)
				}
			}
			if name == "supported blocks still load" && mod.ManagedResources["terraform_data.b"] == nil {
				t.Errorf("terraform_data.b is missing")
			}
		})
	}
}
