package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestDecodeLocals(t *testing.T) {
	t.Parallel()
	type localSummary struct {
		Value     cty.Value // the expression's value, for constant ones
		Refs      []string  // the expression's references otherwise
		DeclRange string
	}
	tests := map[string]struct {
		files     map[string]string
		want      map[string]localSummary
		wantDiags []diag
	}{
		"several blocks and files": {
			files: map[string]string{
				"a.tf":      "locals {\n  a = 1\n  b = \"two\"\n}\nlocals {\n  c = [a, b]\n}\n",
				"b.tf.json": `{"locals": {"d": "${local.a + 1}", "e": true}}`,
			},
			want: map[string]localSummary{
				"a": {Value: cty.NumberIntVal(1), DeclRange: "a.tf:2,3-2,8"},
				"b": {Value: cty.StringVal("two"), DeclRange: "a.tf:3,3-3,12"},
				"c": {Refs: []string{"a", "b"}, DeclRange: "a.tf:6,3-6,13"},
				"d": {Refs: []string{"local.a"}, DeclRange: "b.tf.json:1,13-1,34"},
				"e": {Value: cty.True, DeclRange: "b.tf.json:1,36-1,45"},
			},
		},
		"empty block": {
			files: map[string]string{"main.tf": "locals {}\n"},
			want:  map[string]localSummary{},
		},
		"names with dashes": {
			files: map[string]string{"main.tf": "locals {\n  a-b = 1\n}\n"},
			want: map[string]localSummary{
				"a-b": {Value: cty.NumberIntVal(1), DeclRange: "main.tf:2,3-2,10"},
			},
		},
		"duplicate across blocks": {
			files: map[string]string{"main.tf": "locals {\n  x = 1\n}\nlocals {\n  x = 2\n}\n"},
			want: map[string]localSummary{
				"x": {Value: cty.NumberIntVal(2), DeclRange: "main.tf:5,3-5,8"},
			},
			wantDiags: []diag{errDiag("Duplicate local value definition", "main.tf:5,3-5,8")},
		},
		"duplicate across files": {
			files: map[string]string{
				"a.tf":      "locals {\n  x = 1\n}\n",
				"b.tf.json": `{"locals": {"x": 2}}`,
			},
			want: map[string]localSummary{
				"x": {Value: cty.NumberIntVal(2), DeclRange: "b.tf.json:1,13-1,19"},
			},
			wantDiags: []diag{errDiag("Duplicate local value definition", "b.tf.json:1,13-1,19")},
		},
		"duplicate in one block": {
			files: map[string]string{"main.tf": "locals {\n  x = 1\n  x = 2\n}\n"},
			want: map[string]localSummary{
				"x": {Value: cty.NumberIntVal(1), DeclRange: "main.tf:2,3-2,8"},
			},
			wantDiags: []diag{errDiag("Attribute redefined", "main.tf:3,3-3,4")},
		},
		"invalid name in json": {
			files: map[string]string{"main.tf.json": `{"locals": {"1x": 1}}`},
			want: map[string]localSummary{
				"1x": {Value: cty.NumberIntVal(1), DeclRange: "main.tf.json:1,13-1,20"},
			},
			wantDiags: []diag{errDiag("Invalid local value name", "main.tf.json:1,13-1,17")},
		},
		"nested block": {
			files: map[string]string{"main.tf": "locals {\n  x {}\n}\n"},
			want:  map[string]localSummary{},
			wantDiags: []diag{
				errDiag("Unexpected \"x\" block", "main.tf:2,3-2,4"),
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mod, diags := loadModuleSrc(t, tc.files)
			assertDiags(t, diags, tc.wantDiags)
			got := map[string]localSummary{}
			for name, l := range mod.Locals {
				if l.Name != name {
					t.Errorf("local %q has Name %q", name, l.Name)
				}
				s := localSummary{DeclRange: fmtRange(&l.DeclRange)}
				if vars := l.Expr.Variables(); len(vars) > 0 {
					s.Refs = travStrings(vars)
				} else {
					s.Value = evalConst(t, l.Expr)
				}
				got[name] = s
			}
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("wrong locals (-want +got)\n%s", diff)
			}
		})
	}
}

func TestDecodeOutput(t *testing.T) {
	t.Parallel()
	type outputSummary struct {
		Value         cty.Value
		Description   string
		Sensitive     bool
		Ephemeral     bool
		DependsOn     []string
		Preconditions []string
		DeclRange     string
	}
	tests := map[string]struct {
		src       string
		file      string
		want      *outputSummary
		wantDiags []diag
	}{
		"minimal": {
			src:  `output "o" { value = 1 }`,
			want: &outputSummary{Value: cty.NumberIntVal(1), DeclRange: "main.tf:1,1-1,11"},
		},
		"all arguments": {
			src: `
output "o" {
  value       = "x"
  description = "The o."
  sensitive   = true
  ephemeral   = true
  depends_on  = [terraform_data.a, data.terraform_remote_state.s, terraform_data.b[0]]

  precondition {
    condition     = var.ok
    error_message = "No."
  }
  precondition {
    condition     = !var.ok
    error_message = "Never."
  }
}
`,
			want: &outputSummary{
				Value: cty.StringVal("x"), Description: "The o.", Sensitive: true, Ephemeral: true,
				DependsOn:     []string{"terraform_data.a", "data.terraform_remote_state.s", "terraform_data.b[0]"},
				Preconditions: []string{"main.tf:9,3-9,15", "main.tf:13,3-13,15"},
				DeclRange:     "main.tf:2,1-2,11",
			},
		},
		"json": {
			file: "main.tf.json",
			src:  `{"output": {"o": {"value": "x", "sensitive": true, "depends_on": ["terraform_data.a"]}}}`,
			want: &outputSummary{
				Value: cty.StringVal("x"), Sensitive: true,
				DependsOn: []string{"terraform_data.a"},
				DeclRange: "main.tf.json:1,18-1,19",
			},
		},
		"missing value": {
			src:  `output "o" {}`,
			want: &outputSummary{DeclRange: "main.tf:1,1-1,11"},
			wantDiags: []diag{
				errDiag("Missing required argument", "main.tf:1,12-1,12"),
			},
		},
		"quoted depends_on": {
			src: `
output "o" {
  value      = 1
  depends_on = ["terraform_data.a"]
}
`,
			want: &outputSummary{
				Value: cty.NumberIntVal(1), DependsOn: []string{"terraform_data.a"},
				DeclRange: "main.tf:2,1-2,11",
			},
			wantDiags: []diag{
				warnDiag("Quoted references are deprecated", "main.tf:4,17-4,35"),
			},
		},
		"invalid depends_on": {
			src: `
output "o" {
  value      = 1
  depends_on = [terraform_data.a, upper("x"), "not a ref!"]
}
`,
			want: &outputSummary{
				Value: cty.NumberIntVal(1), DependsOn: []string{"terraform_data.a"},
				DeclRange: "main.tf:2,1-2,11",
			},
			wantDiags: []diag{
				errDiag("Invalid expression", "main.tf:4,35-4,45"),
				errDiag("Invalid expression", "main.tf:4,47-4,59"),
			},
		},
		"depends_on not a list": {
			src: `
output "o" {
  value      = 1
  depends_on = terraform_data.a
}
`,
			want: &outputSummary{Value: cty.NumberIntVal(1), DeclRange: "main.tf:2,1-2,11"},
			wantDiags: []diag{
				errDiag("Invalid expression", "main.tf:4,16-4,32"),
			},
		},
		"postcondition is not allowed": {
			src: `
output "o" {
  value = 1
  postcondition {
    condition     = true
    error_message = "x"
  }
}
`,
			want: &outputSummary{Value: cty.NumberIntVal(1), DeclRange: "main.tf:2,1-2,11"},
			wantDiags: []diag{
				errDiag("Unsupported block type", "main.tf:4,3-4,16"),
			},
		},
		"non-bool sensitive": {
			src: `
output "o" {
  value     = 1
  sensitive = "yes"
}
`,
			want: &outputSummary{Value: cty.NumberIntVal(1), DeclRange: "main.tf:2,1-2,11"},
			wantDiags: []diag{
				errDiag("Unsuitable value type", "main.tf:4,16-4,19"),
			},
		},
		"invalid name": {
			src:  `output "o.k" { value = 1 }`,
			want: &outputSummary{Value: cty.NumberIntVal(1), DeclRange: "main.tf:1,1-1,13"},
			wantDiags: []diag{
				errDiag("Invalid output name", "main.tf:1,8-1,13"),
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			file := tc.file
			if file == "" {
				file = "main.tf"
			}
			mod, diags := loadModuleSrc(t, map[string]string{file: tc.src})
			assertDiags(t, diags, tc.wantDiags)
			if len(mod.Outputs) != 1 {
				t.Fatalf("want one output, got %d", len(mod.Outputs))
			}
			for _, o := range mod.Outputs {
				got := &outputSummary{
					Value:       evalConst(t, o.Expr),
					Description: o.Description,
					Sensitive:   o.Sensitive,
					Ephemeral:   o.Ephemeral,
					DependsOn:   travStrings(o.DependsOn),
					DeclRange:   fmtRange(&o.DeclRange),
				}
				for _, r := range o.Preconditions {
					got.Preconditions = append(got.Preconditions, fmtRange(&r.DeclRange))
				}
				if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
					t.Errorf("wrong output (-want +got)\n%s", diff)
				}
			}
		})
	}
}

func TestDecodeProvider(t *testing.T) {
	t.Parallel()
	type providerSummary struct {
		Name      string
		Alias     string
		Config    []string // attribute names left for the provider schema
		DeclRange string
	}
	tests := map[string]struct {
		src       string
		file      string
		want      map[string]providerSummary
		wantDiags []diag
	}{
		"default and aliased": {
			src: `
provider "aws" {
  region = "us-east-1"
}
provider "aws" {
  alias   = "west"
  region  = "us-west-2"
  version = "~> 1.0"
}
`,
			want: map[string]providerSummary{
				"aws":      {Name: "aws", Config: []string{"region"}, DeclRange: "main.tf:2,1-2,15"},
				"aws.west": {Name: "aws", Alias: "west", Config: []string{"region"}, DeclRange: "main.tf:5,1-5,15"},
			},
			wantDiags: []diag{
				{Severity: "warning", Summary: "Version constraints inside provider configuration blocks are deprecated", Subject: "main.tf:8,13-8,21"},
			},
		},
		"json": {
			file: "main.tf.json",
			src:  `{"provider": {"aws": [{"region": "a"}, {"alias": "west", "region": "b"}], "google": {"alias": "g"}}}`,
			want: map[string]providerSummary{
				"aws":      {Name: "aws", Config: []string{"region"}, DeclRange: "main.tf.json:1,22-1,23"},
				"aws.west": {Name: "aws", Alias: "west", Config: []string{"region"}, DeclRange: "main.tf.json:1,22-1,23"},
				"google.g": {Name: "google", Alias: "g", Config: []string{}, DeclRange: "main.tf.json:1,85-1,86"},
			},
		},
		"bare alias": {
			// Terraform requires a string here too.
			src: `
provider "aws" {
  alias = west
}
`,
			want: map[string]providerSummary{
				"aws": {Name: "aws", Config: []string{}, DeclRange: "main.tf:2,1-2,15"},
			},
			wantDiags: []diag{
				errDiag("Unsuitable value type", "main.tf:3,11-3,15"),
				errDiag("Variables not allowed", "main.tf:3,11-3,15"),
			},
		},
		"invalid alias": {
			src: `
provider "aws" {
  alias = "a.b"
}
`,
			want: map[string]providerSummary{
				"aws.a.b": {Name: "aws", Alias: "a.b", Config: []string{}, DeclRange: "main.tf:2,1-2,15"},
			},
			wantDiags: []diag{
				errDiag("Invalid provider configuration alias", "main.tf:3,11-3,16"),
			},
		},
		"invalid name": {
			src: `provider "my provider" {}`,
			want: map[string]providerSummary{
				"my provider": {Name: "my provider", Config: []string{}, DeclRange: "main.tf:1,1-1,23"},
			},
			wantDiags: []diag{
				errDiag("Invalid provider local name", "main.tf:1,1-1,23"),
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			file := tc.file
			if file == "" {
				file = "main.tf"
			}
			mod, diags := loadModuleSrc(t, map[string]string{file: tc.src})
			assertDiags(t, diags, tc.wantDiags)
			got := map[string]providerSummary{}
			for key, p := range mod.ProviderConfigs {
				attrs, adiags := p.Config.JustAttributes()
				assertDiags(t, adiags, nil)
				got[key] = providerSummary{
					Name: p.Name, Alias: p.Alias, Config: sortedKeys(attrs),
					DeclRange: fmtRange(&p.DeclRange),
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong provider configurations (-want +got)\n%s", diff)
			}
		})
	}
}
