package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// writeTree writes files (name -> content, names may contain directories)
// under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// loadConfigSrc writes files to a fresh directory and loads the
// configuration rooted there. Child modules' files are named after their
// directory in these tests (child/child.tf), so that diagnostics, which
// name files by base name, say which module they are about.
func loadConfigSrc(t *testing.T, files map[string]string) (*Config, hcl.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	return NewParser().LoadConfig(dir)
}

func TestLoadConfig_tree(t *testing.T) {
	t.Parallel()
	cfg, diags := loadConfigSrc(t, map[string]string{
		"main.tf": `
module "a" {
  source = "./modules/a"
}
module "b" {
  source = "./modules/a"
  count  = 2
}
`,
		"modules/a/a.tf": `
module "leaf" {
  source = "../leaf"
}
`,
		"modules/leaf/leaf.tf": `
resource "terraform_data" "x" {}
`,
	})
	assertDiags(t, diags, nil)
	var paths []string
	cfg.DeepEach(func(c *Config) {
		paths = append(paths, c.Path.String())
		if c.Root != cfg {
			t.Errorf("%s: wrong root", c.Path)
		}
		if c.Parent != nil && c.Parent.Children[c.Path[len(c.Path)-1]] != c {
			t.Errorf("%s: not among its parent's children", c.Path)
		}
	})
	want := []string{"", "module.a", "module.a.module.leaf", "module.b", "module.b.module.leaf"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("wrong tree (-want +got)\n%s", diff)
	}
	leaf := cfg.Descendant([]string{"b", "leaf"})
	if leaf == nil || leaf.Call.Name != "leaf" || leaf.Parent.Call.Count == nil {
		t.Fatalf("module.b.module.leaf not found or wrong: %#v", leaf)
	}
	if got := filepath.ToSlash(leaf.Module.SourceDir); !strings.HasSuffix(got, "/modules/leaf") {
		t.Errorf("leaf SourceDir = %s", got)
	}
	if cfg.Descendant([]string{"nosuch"}) != nil {
		t.Error("Descendant found a module that is not called")
	}
	if cfg.Resource(leaf.Path, leaf.Module.ManagedResources["terraform_data.x"].Addr()) == nil {
		t.Error("Resource did not find module.b.module.leaf.terraform_data.x")
	}
}

func TestLoadConfig_jsonModuleCall(t *testing.T) {
	t.Parallel()
	cfg, diags := loadConfigSrc(t, map[string]string{
		"main.tf.json": `{"module": {"m": {"source": "./child", "count": 2, "in": "x"}}}`,
		"child/child.tf": `
variable "in" {}
`,
	})
	assertDiags(t, diags, nil)
	m := cfg.Children["m"]
	if m == nil || m.Call.Count == nil {
		t.Fatalf("module m not loaded from JSON: %#v", m)
	}
	if _, ok := m.Call.Inputs["in"]; !ok || len(m.Call.Inputs) != 1 {
		t.Errorf("wrong inputs %v", sortedAttrNames(m.Call.Inputs))
	}
}

func TestLoadConfig_installedModule(t *testing.T) {
	t.Parallel()
	const src = "git::https://example.com/mod.git?ref=v1"
	files := map[string]string{
		"main.tf": `
module "remote" {
  source = "` + src + `"
}
`,
		".terraform/modules/remote/remote.tf": `
variable "v" {
  default = 1
}
`,
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"remote","Source":"` + src + `","Dir":".terraform/modules/remote"}]}`,
	}
	cfg, diags := loadConfigSrc(t, files)
	assertDiags(t, diags, nil)
	if r := cfg.Children["remote"]; r == nil || r.Module.Variables["v"] == nil {
		t.Fatalf("installed module not loaded: %#v", r)
	}

	// A source changed since init is not the installed module.
	files[".terraform/modules/modules.json"] = strings.Replace(files[".terraform/modules/modules.json"], "ref=v1", "ref=v0", 1)
	_, diags = loadConfigSrc(t, files)
	assertDiags(t, diags, []diag{errDiag("Module source has changed", "main.tf:3,12-3,53")})
}

// TestLoadConfig_installedRegistryModule: the manifest records a registry
// module under its full address and the version installed, as terraform
// init writes it; the configuration's short address matches it, and a
// version constraint the installed version no longer meets is reported as
// Terraform reports it.
func TestLoadConfig_installedRegistryModule(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"main.tf": `
module "reg" {
  source  = "acme/thing/null//sub"
  version = "~> 1.0"
}
module "abs" {
  source = "/srv/modules/abs"
}
`,
		".terraform/modules/reg/sub/main.tf": `variable "v" {
  default = 1
}
`,
		".terraform/modules/abs/main.tf": `variable "w" {
  default = 1
}
`,
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
			`{"Key":"abs","Source":"file:///srv/modules/abs","Dir":".terraform/modules/abs"},` +
			`{"Key":"reg","Source":"registry.terraform.io/acme/thing/null//sub","Version":"1.2.0","Dir":".terraform/modules/reg/sub"}]}`,
	}
	cfg, diags := loadConfigSrc(t, files)
	assertDiags(t, diags, nil)
	if r := cfg.Children["reg"]; r == nil || r.Module.Variables["v"] == nil {
		t.Fatalf("registry module not loaded: %#v", r)
	}
	if r := cfg.Children["abs"]; r == nil || r.Module.Variables["w"] == nil {
		t.Fatalf("absolute path module not loaded: %#v", r)
	}

	files["main.tf"] = strings.Replace(files["main.tf"], "~> 1.0", "2.0.0", 1)
	_, diags = loadConfigSrc(t, files)
	assertDiags(t, diags, []diag{errDiag("Module version requirements have changed", "main.tf:3,13-3,35")})
}

// TestLoadConfig_errors checks the errors for module calls that cannot be
// loaded. Summaries and subjects are Terraform's (terraform validate after
// terraform init, or terraform init where it fails first), except where a
// comment says otherwise.
func TestLoadConfig_errors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files map[string]string
		want  []diag
	}{
		"directory missing": {
			// Terraform needs init for local modules too: its init says
			// "Unreadable module directory" without a subject and validate
			// then "Module not installed". strata reads local modules
			// directly, so it reports the first, at the source.
			files: map[string]string{"main.tf": `
module "m" {
  source = "./nope"
}
`},
			want: []diag{errDiag("Unreadable module directory", "main.tf:3,12-3,20")},
		},
		"directory without configuration files": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./empty"
}
`,
				"empty/README": "nothing here",
			},
			want: []diag{errDiag("Unreadable module directory", "main.tf:3,12-3,21")},
		},
		"unsupported argument": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
  a      = 1
  bogus  = 2
}
`,
				"child/child.tf": `variable "a" {}`,
			},
			want: []diag{errDiag("Unsupported argument", "main.tf:5,3-5,8")},
		},
		"missing required argument": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
}
`,
				"child/child.tf": `
variable "a" {}
variable "b" {
  default = 1
}
variable "c" {
  type = string
}
variable "d" {
  default = null
}
`,
			},
			want: []diag{
				errDiag("Missing required argument", "main.tf:2,12-2,13"),
				errDiag("Missing required argument", "main.tf:2,12-2,13"),
			},
		},
		"count and for_each": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source   = "./child"
  count    = 1
  for_each = toset(["a"])
}
`,
				"child/child.tf": ``,
			},
			want: []diag{errDiag(`Invalid combination of "count" and "for_each"`, "main.tf:5,3-5,11")},
		},
		"source from a resource": {
			// Variables and locals are allowed (OpenTofu's early
			// evaluation), not what is known only while planning.
			files: map[string]string{"main.tf": `
resource "terraform_data" "d" {}
module "m" {
  source = terraform_data.d.output
}
`},
			want: []diag{errDiag("Dynamic value in static context", "main.tf:4,12-4,35")},
		},
		"source from a variable without a value": {
			files: map[string]string{"main.tf": `
variable "dir" {}
module "m" {
  source = var.dir
}
`},
			want: []diag{errDiag("Variable value required for early evaluation", "main.tf:4,12-4,19")},
		},
		"source from a function": {
			files: map[string]string{"main.tf": `
module "m" {
  source = lower("./CHILD")
}
`},
			want: []diag{errDiag("Function calls not allowed", "main.tf:3,12-3,28")},
		},
		"source empty": {
			files: map[string]string{"main.tf": `
module "m" {
  source = ""
}
`},
			want: []diag{errDiag("Invalid module source address", "main.tf:3,12-3,14")},
		},
		"source missing": {
			// hcl's own diagnostic, zero characters wide; Terraform's JSON
			// output widens it to the brace.
			files: map[string]string{"main.tf": `
module "m" {
}
`},
			want: []diag{errDiag("Missing required argument", "main.tf:2,12-2,12")},
		},
		"version on a local source": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source  = "./child"
  version = "1.0.0"
}
`,
				"child/child.tf": ``,
			},
			want: []diag{errDiag("Invalid registry module source address", "main.tf:3,13-3,22")},
		},
		"remote source not installed": {
			files: map[string]string{"main.tf": `
module "m" {
  source = "git::https://example.com/mod.git"
}
`},
			want: []diag{errDiag("Module not installed", "main.tf:2,1-2,11")},
		},
		"registry source not installed": {
			files: map[string]string{"main.tf": `
module "m" {
  source  = "hashicorp/consul/aws"
  version = "0.1.0"
}
`},
			want: []diag{errDiag("Module not installed", "main.tf:2,1-2,11")},
		},
		"module calling itself": {
			// Terraform has no such check: init recurses until the path of
			// the module cache is too long.
			files: map[string]string{"main.tf": `
module "m" {
  source = "./"
}
`},
			want: []diag{errDiag("Module calls itself", "main.tf:3,12-3,16")},
		},
		"modules calling each other": {
			files: map[string]string{
				"main.tf": `
module "a" {
  source = "./a"
}
`,
				"a/a.tf": `
module "b" {
  source = "../b"
}
`,
				"b/b.tf": `
module "a" {
  source = "../a"
}
`,
			},
			want: []diag{errDiag("Module calls itself", "b.tf:3,12-3,18")},
		},
		"provider block in a module called with count": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
  count  = 2
}
`,
				"child/child.tf": `
provider "aws" {
  region = "eu-west-1"
}
`,
			},
			want: []diag{errDiag("Module is incompatible with count, for_each, and depends_on", "main.tf:4,12-4,13")},
		},
		"provider block in a module called with for_each": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source   = "./child"
  for_each = toset(["a"])
}
`,
				"child/child.tf": `
provider "aws" {
  region = "eu-west-1"
}
`,
			},
			want: []diag{errDiag("Module is incompatible with count, for_each, and depends_on", "main.tf:4,14-4,26")},
		},
		"provider block in a module called with depends_on": {
			files: map[string]string{
				"main.tf": `
resource "terraform_data" "x" {}
module "m" {
  source     = "./child"
  depends_on = [terraform_data.x]
}
`,
				"child/child.tf": `
provider "aws" {
  region = "eu-west-1"
}
`,
			},
			want: []diag{errDiag("Module is incompatible with count, for_each, and depends_on", "main.tf:5,17-5,33")},
		},
		"provider block below a module called with count": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
  count  = 2
}
`,
				"child/child.tf": `
module "inner" {
  source = "../inner"
}
`,
				"inner/inner.tf": `
provider "aws" {
  alias  = "x"
  region = "eu-west-1"
}
`,
			},
			want: []diag{errDiag("Module is incompatible with count, for_each, and depends_on", "main.tf:4,12-4,13")},
		},
		"empty provider block in a module called with count": {
			// An empty block is a proxy, which Terraform allows (with a
			// warning that it is redundant).
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
  count  = 2
}
`,
				"child/child.tf": `
provider "aws" {}
provider "aws" {
  alias = "x"
}
`,
			},
		},
		"passing a configuration to a module with its own": {
			files: map[string]string{
				"main.tf": `
provider "aws" {
  alias = "west"
}
module "m" {
  source = "./child"
  providers = {
    aws = aws.west
  }
}
`,
				"child/child.tf": `
provider "aws" {
  region = "eu-west-1"
}
`,
			},
			want: []diag{errDiag("Cannot override provider configuration", "main.tf:8,5-8,8")},
		},
		"passing a provider the module does not declare": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
  providers = {
    aws = aws
  }
}
`,
				"child/child.tf": ``,
			},
			want: []diag{warnDiag("Reference to undefined provider", "main.tf:5,5-5,8")},
		},
		"reserved blocks": {
			// Only the three errors: the blocks are not reported again as
			// unexpected.
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
  lifecycle {
  }
  locals {
  }
  provider "x" {
  }
}
`,
				"child/child.tf": ``,
			},
			want: []diag{
				errDiag("Reserved block type name in module block", "main.tf:4,3-4,12"),
				errDiag("Reserved block type name in module block", "main.tf:6,3-6,9"),
				errDiag("Reserved block type name in module block", "main.tf:8,3-8,11"),
			},
		},
		"unknown block": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
  lifecycle {
  }
  foo {
  }
}
`,
				"child/child.tf": ``,
			},
			want: []diag{
				errDiag("Reserved block type name in module block", "main.tf:4,3-4,12"),
				errDiag("Unsupported block type", "main.tf:6,3-6,6"),
			},
		},
		"error in the child": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
}
`,
				"child/child.tf": `
resource "terraform_data" {}
`,
			},
			want: []diag{errDiag("Missing name for resource", "child.tf:2,27-2,28")},
		},
		"invalid module name": {
			files: map[string]string{
				"main.tf": `
module "1m" {
  source = "./child"
}
`,
				"child/child.tf": ``,
			},
			want: []diag{errDiag("Invalid module instance name", "main.tf:2,8-2,12")},
		},
		"duplicate module call": {
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./child"
}
module "m" {
  source = "./child"
}
`,
				"child/child.tf": ``,
			},
			want: []diag{errDiag("Duplicate module call", "main.tf:5,1-5,11")},
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
