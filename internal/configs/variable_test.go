package configs

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// varSummary is what the variable tests compare.
type varSummary struct {
	Description string
	Type        cty.Type
	Default     cty.Value
	Required    bool
	Sensitive   bool
	Nullable    bool
	Ephemeral   bool
	Validations []string // ranges of the validation blocks
	DeclRange   string
}

func summarizeVariable(v *Variable) varSummary {
	s := varSummary{
		Description: v.Description,
		Type:        v.Type,
		Default:     v.Default,
		Required:    v.Required(),
		Sensitive:   v.Sensitive,
		Nullable:    v.Nullable,
		Ephemeral:   v.Ephemeral,
		DeclRange:   fmtRange(&v.DeclRange),
	}
	for _, r := range v.Validations {
		s.Validations = append(s.Validations, fmtRange(&r.DeclRange))
	}
	return s
}

func TestDecodeVariable(t *testing.T) {
	t.Parallel()
	objTy := func(atys map[string]cty.Type, optional ...string) cty.Type {
		return cty.ObjectWithOptionalAttrs(atys, optional)
	}
	tests := map[string]struct {
		src       string
		file      string // default main.tf
		want      varSummary
		wantDiags []diag
	}{
		"minimal": {
			src: `variable "a" {}`,
			want: varSummary{
				Type: cty.DynamicPseudoType, Required: true, Nullable: true,
				DeclRange: "main.tf:1,1-1,13",
			},
		},
		"all attributes": {
			src: `
variable "a" {
  description = "The a."
  type        = string
  default     = "x"
  sensitive   = true
  ephemeral   = true
  nullable    = true
}
`,
			want: varSummary{
				Description: "The a.", Type: cty.String, Default: cty.StringVal("x"),
				Sensitive: true, Ephemeral: true, Nullable: true,
				DeclRange: "main.tf:2,1-2,13",
			},
		},
		"untyped default keeps its type": {
			src: `variable "a" { default = [1, "b"] }`,
			want: varSummary{
				Type:     cty.DynamicPseudoType,
				Default:  cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("b")}),
				Nullable: true, DeclRange: "main.tf:1,1-1,13",
			},
		},
		"default is converted to the type": {
			src: `
variable "n" {
  type    = number
  default = "5"
}
`,
			want: varSummary{Type: cty.Number, Default: cty.NumberIntVal(5), Nullable: true, DeclRange: "main.tf:2,1-2,13"},
		},
		"collection default is converted": {
			src: `
variable "l" {
  type    = list(string)
  default = [1, true]
}
`,
			want: varSummary{
				Type:     cty.List(cty.String),
				Default:  cty.ListVal([]cty.Value{cty.StringVal("1"), cty.StringVal("true")}),
				Nullable: true, DeclRange: "main.tf:2,1-2,13",
			},
		},
		"default conversion error": {
			src: `
variable "n" {
  type    = number
  default = "five"
}
`,
			want: varSummary{Type: cty.Number, Default: cty.DynamicVal, Nullable: true, DeclRange: "main.tf:2,1-2,13"},
			wantDiags: []diag{
				errDiag("Invalid default value for variable", "main.tf:4,13-4,19"),
			},
		},
		"nested default conversion error": {
			src: `
variable "o" {
  type    = object({ a = optional(string, "x"), b = number })
  default = { b = "notanumber" }
}
`,
			want: varSummary{
				Type:     objTy(map[string]cty.Type{"a": cty.String, "b": cty.Number}, "a"),
				Default:  cty.DynamicVal,
				Nullable: true, DeclRange: "main.tf:2,1-2,13",
			},
			wantDiags: []diag{
				errDiag("Invalid default value for variable", "main.tf:4,13-4,33"),
			},
		},
		"optional attributes with defaults": {
			src: `
variable "o" {
  type = object({
    name = string
    size = optional(number, 3)
    tags = optional(map(string), {})
    note = optional(string)
  })
  default = { name = "x" }
}
`,
			want: varSummary{
				Type: objTy(map[string]cty.Type{
					"name": cty.String, "size": cty.Number, "tags": cty.Map(cty.String), "note": cty.String,
				}, "size", "tags", "note"),
				Default: cty.ObjectVal(map[string]cty.Value{
					"name": cty.StringVal("x"),
					"size": cty.NumberIntVal(3),
					"tags": cty.MapValEmpty(cty.String),
					"note": cty.NullVal(cty.String),
				}),
				Nullable: true, DeclRange: "main.tf:2,1-2,13",
			},
		},
		"optional defaults inside a list": {
			src: `
variable "l" {
  type    = list(object({ a = optional(string, "d") }))
  default = [{}, { a = "set" }]
}
`,
			want: varSummary{
				Type: cty.List(objTy(map[string]cty.Type{"a": cty.String}, "a")),
				Default: cty.ListVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("d")}),
					cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("set")}),
				}),
				Nullable: true, DeclRange: "main.tf:2,1-2,13",
			},
		},
		"optional defaults are not applied to a null default": {
			src: `
variable "o" {
  type    = object({ a = optional(string, "d") })
  default = null
}
`,
			want: varSummary{
				Type:     objTy(map[string]cty.Type{"a": cty.String}, "a"),
				Default:  cty.NullVal(cty.Object(map[string]cty.Type{"a": cty.String})),
				Nullable: true, DeclRange: "main.tf:2,1-2,13",
			},
		},
		"any": {
			src: `
variable "a" {
  type    = map(any)
  default = { x = 1, y = "2" }
}
`,
			want: varSummary{
				Type:     cty.Map(cty.DynamicPseudoType),
				Default:  cty.MapVal(map[string]cty.Value{"x": cty.StringVal("1"), "y": cty.StringVal("2")}),
				Nullable: true, DeclRange: "main.tf:2,1-2,13",
			},
		},
		"bare list keyword means list(any)": {
			src: `
variable "l" {
  type    = list
  default = [1, "a"]
}
`,
			want: varSummary{
				Type:     cty.List(cty.DynamicPseudoType),
				Default:  cty.ListVal([]cty.Value{cty.StringVal("1"), cty.StringVal("a")}),
				Nullable: true, DeclRange: "main.tf:2,1-2,13",
			},
		},
		"bare map keyword means map(any)": {
			src:  `variable "m" { type = map }`,
			want: varSummary{Type: cty.Map(cty.DynamicPseudoType), Required: true, Nullable: true, DeclRange: "main.tf:1,1-1,13"},
		},
		"legacy quoted string": {
			src:  `variable "a" { type = "string" }`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:1,1-1,13"},
			wantDiags: []diag{
				errDiag("Invalid quoted type constraints", "main.tf:1,23-1,31"),
			},
		},
		"legacy quoted list": {
			src:  `variable "a" { type = "list" }`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:1,1-1,13"},
			wantDiags: []diag{
				errDiag("Invalid quoted type constraints", "main.tf:1,23-1,29"),
			},
		},
		"legacy quoted map with default": {
			// The default is still checked, against no type constraint.
			src: `
variable "a" {
  type    = "map"
  default = { k = "v" }
}
`,
			want: varSummary{
				Type:     cty.DynamicPseudoType,
				Default:  cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v")}),
				Nullable: true, DeclRange: "main.tf:2,1-2,13",
			},
			wantDiags: []diag{
				errDiag("Invalid quoted type constraints", "main.tf:3,13-3,18"),
			},
		},
		"quoted type expression": {
			src:  `variable "a" { type = "list(string)" }`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:1,1-1,13"},
			wantDiags: []diag{
				errDiag("Invalid legacy variable type hint", "main.tf:1,23-1,37"),
			},
		},
		"template type expression": {
			src:  `variable "a" { type = "${string}" }`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:1,1-1,13"},
			wantDiags: []diag{
				errDiag("Invalid type specification", "main.tf:1,23-1,34"),
			},
		},
		"invalid type keyword": {
			src:  `variable "a" { type = strin }`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:1,1-1,13"},
			wantDiags: []diag{
				errDiag("Invalid type specification", "main.tf:1,23-1,28"),
			},
		},
		"json types": {
			file: "main.tf.json",
			src:  `{"variable": {"a": {"type": "list(number)", "default": ["1", 2]}}}`,
			want: varSummary{
				Type:     cty.List(cty.Number),
				Default:  cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}),
				Nullable: true, DeclRange: "main.tf.json:1,20-1,21",
			},
		},
		"json quoted types are the native form": {
			file: "main.tf.json",
			src:  `{"variable": {"a": {"type": "list", "default": [1, "a"]}}}`,
			want: varSummary{
				Type:     cty.List(cty.DynamicPseudoType),
				Default:  cty.ListVal([]cty.Value{cty.StringVal("1"), cty.StringVal("a")}),
				Nullable: true, DeclRange: "main.tf.json:1,20-1,21",
			},
		},
		"json optional defaults": {
			file: "main.tf.json",
			src:  `{"variable": {"a": {"type": "object({a=optional(string, \"z\")})", "default": {}}}}`,
			want: varSummary{
				Type:     objTy(map[string]cty.Type{"a": cty.String}, "a"),
				Default:  cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("z")}),
				Nullable: true, DeclRange: "main.tf.json:1,20-1,21",
			},
		},
		"nullable false with null default": {
			src: `
variable "a" {
  type     = string
  nullable = false
  default  = null
}
`,
			want: varSummary{Type: cty.String, Default: cty.NullVal(cty.String), DeclRange: "main.tf:2,1-2,13"},
			wantDiags: []diag{
				errDiag("Invalid default value for variable", "main.tf:5,14-5,18"),
			},
		},
		"nullable false without default": {
			src: `
variable "a" {
  nullable = false
}
`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, DeclRange: "main.tf:2,1-2,13"},
		},
		"nullable true with null default": {
			src: `
variable "a" {
  type    = number
  default = null
}
`,
			want: varSummary{Type: cty.Number, Default: cty.NullVal(cty.Number), Nullable: true, DeclRange: "main.tf:2,1-2,13"},
		},
		"non-bool sensitive": {
			src: `
variable "a" {
  sensitive = "very"
}
`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:2,1-2,13"},
			wantDiags: []diag{
				errDiag("Unsuitable value type", "main.tf:3,16-3,20"),
			},
		},
		"validation blocks": {
			src: `
variable "a" {
  type = string
  validation {
    condition     = length(var.a) > 0
    error_message = "Must not be empty."
  }
  validation {
    condition     = var.a != "x"
    error_message = "Must not be x."
  }
}
`,
			want: varSummary{
				Type: cty.String, Required: true, Nullable: true,
				Validations: []string{"main.tf:4,3-4,13", "main.tf:8,3-8,13"},
				DeclRange:   "main.tf:2,1-2,13",
			},
		},
		"validation without error_message": {
			src: `
variable "a" {
  validation {
    condition = true
  }
}
`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:2,1-2,13"},
			wantDiags: []diag{
				errDiag("Missing required argument", "main.tf:3,14-3,14"),
			},
		},
		"default referring to a variable": {
			src: `
variable "a" {
  default = var.b
}
`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:2,1-2,13"},
			wantDiags: []diag{
				errDiag("Variables not allowed", "main.tf:3,13-3,16"),
			},
		},
		"default calling a function": {
			src: `
variable "a" {
  default = upper("x")
}
`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:2,1-2,13"},
			wantDiags: []diag{
				errDiag("Function calls not allowed", "main.tf:3,13-3,23"),
			},
		},
		"unsupported argument": {
			src: `
variable "a" {
  value = 1
}
`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:2,1-2,13"},
			wantDiags: []diag{
				errDiag("Unsupported argument", "main.tf:3,3-3,8"),
			},
		},
		"invalid name": {
			src:  `variable "1bad" {}`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:1,1-1,16"},
			wantDiags: []diag{
				errDiag("Invalid variable name", "main.tf:1,10-1,16"),
			},
		},
		"dashes are allowed": {
			src:  `variable "a-b_c" {}`,
			want: varSummary{Type: cty.DynamicPseudoType, Required: true, Nullable: true, DeclRange: "main.tf:1,1-1,17"},
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
			if len(mod.Variables) != 1 {
				t.Fatalf("want one variable, got %d", len(mod.Variables))
			}
			for _, v := range mod.Variables {
				if diff := cmp.Diff(tc.want, summarizeVariable(v), ctyOpts); diff != "" {
					t.Errorf("wrong variable (-want +got)\n%s", diff)
				}
			}
		})
	}
}

func TestDecodeVariable_reservedNames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mod, diags := loadMainTF(t, fmt.Sprintf("variable %q {}\n", name))
			end := 10 + len(name) + 2
			assertDiags(t, diags, []diag{
				errDiag("Invalid variable name", fmt.Sprintf("main.tf:1,10-1,%d", end)),
			})
			// The variable is still recorded, so references to it do not
			// produce further errors.
			if _, ok := mod.Variables[name]; !ok {
				t.Errorf("variable %q is missing", name)
			}
		})
	}
}

func TestDecodeVariable_validationExpressions(t *testing.T) {
	t.Parallel()
	mod, diags := loadMainTF(t, `
variable "a" {
  validation {
    condition     = var.a > 1
    error_message = "Too small: ${var.a}."
  }
}
`)
	assertDiags(t, diags, nil)
	rule := mod.Variables["a"].Validations[0]
	got := []string{
		fmtRange(rule.Condition.Range().Ptr()),
		fmtRange(rule.ErrorMessage.Range().Ptr()),
	}
	for _, trav := range rule.Condition.Variables() {
		got = append(got, travString(trav))
	}
	for _, trav := range rule.ErrorMessage.Variables() {
		got = append(got, travString(trav))
	}
	want := []string{"main.tf:4,21-4,30", "main.tf:5,21-5,43", "var.a", "var.a"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong validation rule (-want +got)\n%s", diff)
	}
}
