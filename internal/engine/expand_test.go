package engine

import (
	"context"
	"strings"
	"testing"
)

// TestForEachKnownKeys: for_each needs its keys during plan, not its
// values: a map of objects not created yet is fine, a set of unknown
// strings or an unknown map is not.
func TestForEachKnownKeys(t *testing.T) {
	const seed = `
resource "terraform_data" "seed" {
  for_each = toset(["a", "b"])
  input    = each.key
}
`
	tests := map[string]struct {
		src     string
		want    []string
		wantErr string
	}{
		"map of unknown objects": {
			src:  seed + "resource \"terraform_data\" \"x\" {\n  for_each = terraform_data.seed\n  input    = each.value.output\n}\n",
			want: []string{`terraform_data.x["a"]`, `terraform_data.x["b"]`},
		},
		"set of unknown strings": {
			src:     seed + "resource \"terraform_data\" \"x\" {\n  for_each = toset([for s in terraform_data.seed : s.id])\n}\n",
			wantErr: `The "for_each" set includes values derived from resource attributes that cannot be determined until apply`,
		},
		"unknown count": {
			src:     seed + "resource \"terraform_data\" \"x\" {\n  count = length(terraform_data.seed[\"a\"].output)\n}\n",
			wantErr: `The "count" value depends on resource attributes that cannot be determined until apply`,
		},
		"module for_each over unknown set": {
			src:     seed + "module \"m\" {\n  source   = \"./mod\"\n  for_each = toset([for s in terraform_data.seed : s.id])\n}\n",
			wantErr: `The "for_each" set includes values derived from resource attributes that cannot be determined until apply`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := testConfigInline(t, map[string]string{"main.tf": tc.src, "mod/main.tf": "resource \"terraform_data\" \"r\" {}\n"})
			plan, diags := builtinEngine(cfg).Plan(context.Background(), nil, PlanOpts{})
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diagnostics = %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := actions(plan)
			for _, addr := range tc.want {
				if _, ok := got[addr]; !ok {
					t.Errorf("%s not planned (got %v)", addr, got)
				}
			}
		})
	}
}

// TestInvalidForEach: each kind of unsuitable for_each (and count) value,
// on a resource and on a module, is an error pointing at the argument.
func TestInvalidForEach(t *testing.T) {
	tests := map[string]struct {
		arg        string // the argument line, for_each = ... or count = ...
		wantDetail string
	}{
		"list":             {`for_each = ["a", "b"]`, `the "for_each" argument must be a map, or set of strings, and you have provided a value of type tuple`},
		"set of numbers":   {`for_each = toset([1, 2])`, `"for_each" supports sets of strings, but you have provided a set containing type number`},
		"null":             {`for_each = null`, `The given "for_each" argument value is null`},
		"set with null":    {`for_each = toset(["a", null])`, `"for_each" sets must not contain null values`},
		"sensitive":        {`for_each = sensitive(toset(["a"]))`, "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments"},
		"negative count":   {`count = -1`, "must be a whole number, zero or greater"},
		"fractional count": {`count = 1.5`, "must be a whole number, zero or greater"},
		"null count":       {`count = null`, `The given "count" argument value is null`},
	}
	for name, tc := range tests {
		for _, kind := range []string{"resource", "module"} {
			t.Run(name+"/"+kind, func(t *testing.T) {
				src := "resource \"terraform_data\" \"x\" {\n  " + tc.arg + "\n}\n"
				if kind == "module" {
					src = "module \"x\" {\n  source = \"./mod\"\n  " + tc.arg + "\n}\n"
				}
				cfg := testConfigInline(t, map[string]string{"main.tf": src, "mod/main.tf": "resource \"terraform_data\" \"r\" {}\n"})
				_, diags := builtinEngine(cfg).Plan(context.Background(), nil, PlanOpts{})
				if !diags.HasErrors() {
					t.Fatal("no error")
				}
				d := diags[0]
				if !strings.HasPrefix(d.Summary, "Invalid ") || !strings.Contains(d.Detail, tc.wantDetail) {
					t.Fatalf("got %q: %q, want detail containing %q", d.Summary, d.Detail, tc.wantDetail)
				}
				if d.Subject == nil || d.Subject.Start.Line != map[string]int{"resource": 2, "module": 3}[kind] {
					t.Fatalf("subject %v, want the argument's line", d.Subject)
				}
			})
		}
	}
}

// TestEmptySetForEach: an empty set expands to no instances whatever its
// element type (toset([]) has elements of dynamic type), as in Terraform,
// for a resource and for a module.
func TestEmptySetForEach(t *testing.T) {
	tests := map[string]string{
		"toset of nothing":      `for_each = toset([])`,
		"empty set of numbers":  `for_each = var.numbers`,
		"empty set of strings":  `for_each = toset(var.strings)`,
		"empty set from concat": `for_each = toset(concat([], []))`,
	}
	vars := "variable \"numbers\" {\n  type    = set(number)\n  default = []\n}\nvariable \"strings\" {\n  type    = list(string)\n  default = []\n}\n"
	for name, arg := range tests {
		for _, kind := range []string{"resource", "module"} {
			t.Run(name+"/"+kind, func(t *testing.T) {
				src := vars + "resource \"terraform_data\" \"x\" {\n  " + arg + "\n}\n"
				if kind == "module" {
					src = vars + "module \"x\" {\n  source = \"./mod\"\n  " + arg + "\n}\n"
				}
				cfg := testConfigInline(t, map[string]string{"main.tf": src, "mod/main.tf": "resource \"terraform_data\" \"r\" {}\n"})
				plan, diags := builtinEngine(cfg).Plan(context.Background(), nil, PlanOpts{})
				if diags.HasErrors() {
					t.Fatalf("unexpected errors: %v", diags)
				}
				if n := len(plan.Changes.Resources); n != 0 {
					t.Fatalf("%d changes planned, want none", n)
				}
			})
		}
	}
}
