package configs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestProviderForEach_decode(t *testing.T) {
	t.Parallel()
	cfg, diags := loadConfigSrc(t, map[string]string{"main.tf": `
variable "regions" {
  default = ["a", "b"]
}
provider "aws" {
  alias    = "by_region"
  for_each = toset(var.regions)
  region   = each.key
}
resource "aws_vpc" "v" {
  for_each = toset(var.regions)
  provider = aws.by_region[each.key]
}
resource "aws_vpc" "lit" {
  provider = aws.by_region["a"]
}
module "m" {
  source    = "./child"
  for_each  = toset(["a"])
  providers = { aws = aws.by_region[each.value] }
}
`, "child/child.tf": childAWS})
	// The resource iterates over the provider's own collection: a warning.
	assertDiags(t, diags, []diag{warnDiag("Provider configuration for_each matches resource", "main.tf:11,14-11,32")})
	pc := cfg.Module.ProviderConfigs["aws.by_region"]
	if pc == nil || pc.ForEach == nil {
		t.Fatalf("for_each not decoded: %#v", pc)
	}
	ref := cfg.Module.ManagedResources["aws_vpc.v"].ProviderRef
	if ref == nil || ref.Name != "aws" || ref.Alias != "by_region" || ref.KeyExpr == nil {
		t.Fatalf("wrong reference %#v", ref)
	}
	if got := travString(ref.KeyExpr.Variables()[0]); got != "each.key" {
		t.Errorf("key expression refers to %s", got)
	}
	lit := cfg.Module.ManagedResources["aws_vpc.lit"].ProviderRef
	if v, d := lit.KeyExpr.Value(nil); d.HasErrors() || !v.RawEquals(cty.StringVal("a")) {
		t.Errorf("literal key = %#v %s", v, d)
	}
	passed := cfg.Module.ModuleCalls["m"].Providers[0]
	if passed.InChild.KeyExpr != nil || passed.InParent.KeyExpr == nil || passed.InParent.Alias != "by_region" {
		t.Errorf("wrong providers entry %#v", passed)
	}
}

func TestProviderForEach_json(t *testing.T) {
	t.Parallel()
	cfg, diags := loadConfigSrc(t, map[string]string{"main.tf.json": `{
  "provider": {"aws": [{"alias": "r", "for_each": "${toset([\"a\"])}"}]},
  "resource": {"aws_vpc": {"v": {"for_each": "${toset([\"a\"])}", "provider": "aws.r[each.key]"}}}
}`})
	assertDiags(t, diags, nil)
	ref := cfg.Module.ManagedResources["aws_vpc.v"].ProviderRef
	if ref == nil || ref.Alias != "r" || ref.KeyExpr == nil {
		t.Fatalf("wrong reference %#v", ref)
	}
}

// childAWS is a child module using the aws provider's default
// configuration, which its caller passes in.
const childAWS = `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
resource "aws_vpc" "c" {}
`

func TestProviderForEach_errors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files map[string]string
		want  []diag
	}{
		"for_each without alias": {
			files: map[string]string{"main.tf": `
provider "aws" {
  for_each = toset(["a"])
}
`},
			want: []diag{errDiag(`Alias required when using "for_each"`, "main.tf:3,14-3,26")},
		},
		"for_each referring to a resource": {
			files: map[string]string{"main.tf": `
provider "aws" {
  alias    = "r"
  for_each = toset(aws_vpc.v.tags)
}
resource "aws_vpc" "v" {}
`},
			want: []diag{errDiag("Invalid provider for_each", "main.tf:4,20-4,34")},
		},
		"key for a configuration without for_each": {
			files: map[string]string{"main.tf": `
provider "aws" {
  alias = "r"
}
resource "aws_vpc" "v" {
  provider = aws.r["a"]
}
`},
			want: []diag{errDiag("Invalid resource provider configuration", "main.tf:6,19-6,24")},
		},
		"key for an undeclared configuration": {
			files: map[string]string{"main.tf": `
resource "aws_vpc" "v" {
  provider = aws.r["a"]
}
`},
			want: []diag{errDiag("Invalid resource provider configuration", "main.tf:3,14-3,19")},
		},
		"no key for a configuration with for_each": {
			files: map[string]string{"main.tf": `
provider "aws" {
  alias    = "r"
  for_each = toset(["a"])
}
data "aws_vpc" "v" {
  provider = aws.r
}
`},
			want: []diag{errDiag("Invalid resource provider configuration", "main.tf:7,14-7,19")},
		},
		"key without alias": {
			files: map[string]string{"main.tf": `
resource "aws_vpc" "v" {
  provider = aws["a"]
}
`},
			want: []diag{errDiag("Invalid provider reference", "main.tf:3,17-3,22")},
		},
		"module: key on the child's side": {
			files: map[string]string{
				"main.tf": `
provider "aws" {
  alias    = "r"
  for_each = toset(["a"])
}
module "m" {
  source    = "./child"
  providers = { aws.x["a"] = aws.r["a"] }
}
`,
				"child/child.tf": `
terraform {
  required_providers {
    aws = { configuration_aliases = [aws.x] }
  }
}
`},
			want: []diag{errDiag("Invalid module provider configuration", "main.tf:8,22-8,27")},
		},
		"module: passing every instance": {
			files: map[string]string{
				"main.tf": `
provider "aws" {
  alias    = "r"
  for_each = toset(["a"])
}
module "m" {
  source    = "./child"
  providers = { aws = aws.r }
}
`,
				"child/child.tf": childAWS},
			want: []diag{errDiag("Invalid module provider configuration", "main.tf:8,23-8,28")},
		},
		"module: same for_each": {
			files: map[string]string{
				"main.tf": `
variable "regions" {
  type    = set(string)
  default = ["a"]
}
provider "aws" {
  alias    = "r"
  for_each = (var.regions)
}
module "m" {
  source    = "./child"
  for_each  = var.regions
  providers = { aws = aws.r[each.key] }
}
`,
				"child/child.tf": childAWS},
			want: []diag{warnDiag("Provider configuration for_each matches module", "main.tf:12,15-12,26")},
		},
		"for_each block in a module called with count": {
			// Not an empty proxy block, though it sets nothing else.
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
  count  = 1
}
`,
				"child/child.tf": `
provider "aws" {
  alias    = "r"
  for_each = toset(["a"])
}
`},
			want: []diag{errDiag("Module is incompatible with count, for_each, and depends_on", "main.tf:4,12-4,13")},
		},
		"import block with a key": {
			files: map[string]string{"main.tf": `
provider "aws" {
  alias    = "r"
  for_each = toset(["a"])
}
resource "aws_vpc" "v" {
  provider = aws.r["a"]
}
import {
  to       = aws_vpc.v
  id       = "x"
  provider = aws.r["a"]
}
`},
			want: []diag{errDiag("Invalid provider reference", "main.tf:12,19-12,24")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, diags := loadConfigSrc(t, tc.files)
			assertDiags(t, diags, tc.want)
		})
	}
}
