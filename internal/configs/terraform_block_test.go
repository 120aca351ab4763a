package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/addrs"
)

func TestModule_terraformBlock(t *testing.T) {
	t.Parallel()
	type reqProvider struct {
		Source  string
		Version string // "" when there is no constraint
		Range   string
	}
	tests := map[string]struct {
		files             map[string]string
		wantVersions      []string
		wantProviders     map[string]reqProvider
		wantBackend       string
		wantBackendRange  string
		wantBackendConfig []string
		wantDiags         []diag
	}{
		"empty": {
			files: map[string]string{"main.tf": `terraform {}`},
		},
		"required_version": {
			files: map[string]string{"main.tf": `
terraform {
  required_version = ">= 1.0, < 2.0"
}
`},
			wantVersions: []string{">= 1.0, < 2.0"},
		},
		"required_version in several blocks and files": {
			files: map[string]string{
				"a.tf":      "terraform {\n  required_version = \">= 1.0\"\n}\nterraform {\n  required_version = \"< 2.0\"\n}\n",
				"b.tf.json": `{"terraform": {"required_version": "~> 1.5"}}`,
			},
			wantVersions: []string{">= 1.0", "< 2.0", "~> 1.5"},
		},
		"invalid required_version": {
			files: map[string]string{"main.tf": `
terraform {
  required_version = "not a version"
}
`},
			wantDiags: []diag{errDiag("Invalid version constraint", "main.tf:3,22-3,37")},
		},
		"non-string required_version": {
			files: map[string]string{"main.tf": `
terraform {
  required_version = ["1.0"]
}
`},
			wantDiags: []diag{errDiag("Unsuitable value type", "main.tf:3,22-3,23")},
		},
		"required_providers object form": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
    mycloud = {
      source = "example.com/acme/mycloud"
    }
    random = {
      version = ">= 3.0"
    }
    empty = {}
  }
}
`},
			wantProviders: map[string]reqProvider{
				"aws":     {"registry.terraform.io/hashicorp/aws", "~> 5.0", "main.tf:4,5-7,6"},
				"mycloud": {"example.com/acme/mycloud", "", "main.tf:8,5-10,6"},
				"random":  {"registry.terraform.io/hashicorp/random", ">= 3.0", "main.tf:11,5-13,6"},
				"empty":   {"registry.terraform.io/hashicorp/empty", "", "main.tf:14,5-14,15"},
			},
		},
		"required_providers legacy string form": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = "~> 4.0"
  }
}
`},
			wantProviders: map[string]reqProvider{
				"aws": {"registry.terraform.io/hashicorp/aws", "~> 4.0", "main.tf:4,5-4,19"},
			},
		},
		"required_providers quoted keys": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      "source"  = "hashicorp/aws"
      "version" = "1.0.0"
    }
  }
}
`},
			wantProviders: map[string]reqProvider{
				"aws": {"registry.terraform.io/hashicorp/aws", "1.0.0", "main.tf:4,5-7,6"},
			},
		},
		"required_providers json": {
			files: map[string]string{"main.tf.json": `{
  "terraform": {
    "required_providers": {
      "aws": {"source": "hashicorp/aws", "version": "~> 5.0", "configuration_aliases": ["aws.east"]},
      "null": ">= 3.0"
    }
  }
}`},
			wantProviders: map[string]reqProvider{
				"aws":  {"registry.terraform.io/hashicorp/aws", "~> 5.0", "main.tf.json:4,7-4,101"},
				"null": {"registry.terraform.io/hashicorp/null", ">= 3.0", "main.tf.json:5,7-5,23"},
			},
		},
		"terraform provider is built in": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    terraform = {}
  }
}
`},
			wantProviders: map[string]reqProvider{
				"terraform": {"terraform.io/builtin/terraform", "", "main.tf:4,5-4,19"},
			},
		},
		"configuration_aliases": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.east, aws.west]
    }
  }
}
`},
			wantProviders: map[string]reqProvider{
				"aws": {"registry.terraform.io/hashicorp/aws", "", "main.tf:4,5-7,6"},
			},
		},
		"invalid configuration_aliases": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      configuration_aliases = ["aws.east", upper("x")]
    }
  }
}
`},
			wantDiags: []diag{
				errDiag("Invalid expression", "main.tf:5,32-5,42"),
				errDiag("Invalid expression", "main.tf:5,44-5,54"),
			},
		},
		"unknown attribute in required_providers object": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
      region = "us-east-1"
    }
  }
}
`},
			wantDiags: []diag{errDiag("Invalid required_providers object", "main.tf:6,7-6,13")},
		},
		"invalid source": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      source = "a/b/c/d"
    }
  }
}
`},
			wantDiags: []diag{errDiag("Invalid provider source", "main.tf:4,11-6,6")},
		},
		"non-string source": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      source = 12
    }
  }
}
`},
			wantDiags: []diag{errDiag("Invalid provider source", "main.tf:4,11-6,6")},
		},
		"invalid version": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> banana"
    }
    gcp = "nope nope"
  }
}
`},
			wantDiags: []diag{
				errDiag("Invalid version constraint", "main.tf:4,11-7,6"),
				errDiag("Invalid version constraint", "main.tf:8,11-8,22"),
			},
		},
		"entry of the wrong type": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = 5
    gcp = ["x"]
  }
}
`},
			wantDiags: []diag{
				errDiag("Invalid required_providers entry", "main.tf:4,11-4,12"),
				errDiag("Invalid required_providers entry", "main.tf:5,11-5,16"),
			},
		},
		"entry referring to a variable": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = var.v
  }
}
`},
			wantDiags: []diag{errDiag("Variables not allowed", "main.tf:4,11-4,14")},
		},
		"duplicate required_providers blocks": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
terraform {
  required_providers {
    gcp = { source = "hashicorp/google" }
  }
}
`},
			wantProviders: map[string]reqProvider{
				"aws": {"registry.terraform.io/hashicorp/aws", "", "main.tf:4,5-4,39"},
			},
			wantDiags: []diag{errDiag("Duplicate required providers configuration", "main.tf:8,3-8,21")},
		},
		"duplicate required_providers in one block": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
`},
			wantProviders: map[string]reqProvider{
				"aws": {"registry.terraform.io/hashicorp/aws", "", "main.tf:4,5-4,39"},
			},
			wantDiags: []diag{errDiag("Duplicate required providers configuration", "main.tf:6,3-6,21")},
		},
		"required_providers with a nested block": {
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws {
      source = "hashicorp/aws"
    }
  }
}
`},
			wantDiags: []diag{errDiag("Unexpected \"aws\" block", "main.tf:4,5-4,8")},
		},
		"backend": {
			files: map[string]string{"main.tf": `
terraform {
  backend "local" {
    path = "x.tfstate"
  }
}
`},
			wantBackend:       "local",
			wantBackendRange:  "main.tf:3,3-3,18",
			wantBackendConfig: []string{"path"},
		},
		"backend json": {
			files:             map[string]string{"main.tf.json": `{"terraform": {"backend": {"s3": {"bucket": "b", "key": "k"}}}}`},
			wantBackend:       "s3",
			wantBackendRange:  "main.tf.json:1,34-1,35",
			wantBackendConfig: []string{"bucket", "key"},
		},
		"duplicate backend": {
			files: map[string]string{
				"a.tf": "terraform {\n  backend \"local\" {}\n}\n",
				"b.tf": "terraform {\n  backend \"s3\" {}\n}\n",
			},
			wantBackend:       "local",
			wantBackendRange:  "a.tf:2,3-2,18",
			wantBackendConfig: []string{},
			wantDiags:         []diag{errDiag("Duplicate backend configuration", "b.tf:2,3-2,15")},
		},
		"backend without a type": {
			files: map[string]string{"main.tf": `
terraform {
  backend {}
}
`},
			wantDiags: []diag{errDiag("Missing type for backend", "main.tf:3,11-3,12")},
		},
		"cloud is rejected": {
			files: map[string]string{"main.tf": `
terraform {
  cloud {
    organization = "acme"
  }
}
`},
			wantDiags: []diag{errDiag("HCP Terraform is not supported", "main.tf:3,3-3,8")},
		},
		"provider_meta and language are accepted": {
			files: map[string]string{"main.tf": `
terraform {
  language = TF2021
  provider_meta "aws" {
    module_name = "x"
  }
}
`},
		},
		"experiments and other language editions are refused, as in a Terraform release": {
			files: map[string]string{"main.tf": `
terraform {
  experiments = []
  language    = "TF2021"
}
terraform {
  language = TF2038
}
`},
			wantDiags: []diag{
				errDiag("Module uses experimental features", "main.tf:3,3-3,14"),
				errDiag("Invalid language edition", "main.tf:4,17-4,25"),
				errDiag("Unsupported language edition", "main.tf:7,14-7,20"),
			},
		},
		"unknown argument": {
			files: map[string]string{"main.tf": `
terraform {
  required_versions = "1.0"
}
`},
			wantDiags: []diag{errDiag("Unsupported argument", "main.tf:3,3-3,20")},
		},
		"unknown block": {
			files: map[string]string{"main.tf": `
terraform {
  providers {}
}
`},
			wantDiags: []diag{errDiag("Unsupported block type", "main.tf:3,3-3,12")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mod, diags := loadModuleSrc(t, tc.files)
			assertDiags(t, diags, tc.wantDiags)

			var versions []string
			for _, vc := range mod.RequiredVersions {
				versions = append(versions, vc.Required.String())
			}
			if diff := cmp.Diff(tc.wantVersions, versions); diff != "" {
				t.Errorf("wrong required versions (-want +got)\n%s", diff)
			}

			providers := map[string]reqProvider{}
			for name, rp := range mod.RequiredProviders {
				if rp.Name != name {
					t.Errorf("required provider %q has Name %q", name, rp.Name)
				}
				var ver string
				if rp.Requirement.Required != nil {
					ver = rp.Requirement.Required.String()
				}
				providers[name] = reqProvider{rp.Source.String(), ver, fmtRange(&rp.DeclRange)}
			}
			want := tc.wantProviders
			if want == nil {
				want = map[string]reqProvider{}
			}
			if diff := cmp.Diff(want, providers); diff != "" {
				t.Errorf("wrong required providers (-want +got)\n%s", diff)
			}

			var backend, backendRange string
			var backendConfig []string
			if mod.Backend != nil {
				backend, backendRange = mod.Backend.Type, fmtRange(&mod.Backend.DeclRange)
				attrs, adiags := mod.Backend.Config.JustAttributes()
				assertDiags(t, adiags, nil)
				backendConfig = sortedKeys(attrs)
			}
			if backend != tc.wantBackend || backendRange != tc.wantBackendRange {
				t.Errorf("wrong backend %q at %q; want %q at %q", backend, backendRange, tc.wantBackend, tc.wantBackendRange)
			}
			if diff := cmp.Diff(tc.wantBackendConfig, backendConfig); diff != "" {
				t.Errorf("wrong backend config (-want +got)\n%s", diff)
			}
		})
	}
}

func TestModuleProviderForLocalName(t *testing.T) {
	t.Parallel()
	mod, diags := loadMainTF(t, `
terraform {
  required_providers {
    aws  = { source = "example.com/acme/aws" }
    tf   = { source = "terraform.io/builtin/terraform" }
  }
}
`)
	assertDiags(t, diags, nil)
	tests := map[string]addrs.Provider{
		"aws":       {Hostname: "example.com", Namespace: "acme", Type: "aws"},
		"tf":        {Hostname: "terraform.io", Namespace: "builtin", Type: "terraform"},
		"terraform": addrs.NewBuiltInProvider("terraform"),
		"google":    addrs.NewDefaultProvider("google"),
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(want, mod.ProviderForLocalName(name)); diff != "" {
				t.Errorf("wrong provider (-want +got)\n%s", diff)
			}
		})
	}
}
