package lang

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
)

// testSchema is a resource-like schema with blocks of several nesting
// modes, to be filled in directly or with dynamic blocks.
var testSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"name": {Type: cty.String, Optional: true},
		"size": {Type: cty.Number, Optional: true},
		"tags": {Type: cty.Map(cty.String), Optional: true},
		"id":   {Type: cty.String, Computed: true},
	},
	BlockTypes: map[string]*configschema.NestedBlock{
		"setting": {
			Nesting: configschema.NestingList,
			Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"name":  {Type: cty.String, Required: true},
					"value": {Type: cty.String, Optional: true},
				},
				BlockTypes: map[string]*configschema.NestedBlock{
					"option": {
						Nesting: configschema.NestingList,
						Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
							"key": {Type: cty.String, Optional: true},
						}},
					},
				},
			},
		},
		"zone": {
			Nesting: configschema.NestingSet,
			Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"name": {Type: cty.String, Required: true},
			}},
		},
		"rule": {
			Nesting: configschema.NestingMap,
			Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"port": {Type: cty.Number, Required: true},
			}},
		},
	},
}

func TestScopeEvalBlock(t *testing.T) {
	t.Parallel()
	str := cty.StringVal
	num := cty.NumberIntVal
	optionType := cty.Object(map[string]cty.Type{"key": cty.String})
	settingType := cty.Object(map[string]cty.Type{"name": cty.String, "value": cty.String, "option": cty.List(optionType)})
	zoneType := cty.Object(map[string]cty.Type{"name": cty.String})
	ruleType := cty.Object(map[string]cty.Type{"port": cty.Number})
	setting := func(name, value cty.Value, options ...cty.Value) cty.Value {
		opts := cty.ListValEmpty(optionType)
		if len(options) > 0 {
			opts = cty.ListVal(options)
		}
		return cty.ObjectVal(map[string]cty.Value{"name": name, "value": value, "option": opts})
	}
	option := func(key string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"key": str(key)})
	}
	// result builds a value of testSchema's type from the given attributes
	// and blocks; everything else is null or empty.
	result := func(vals map[string]cty.Value) cty.Value {
		ret := map[string]cty.Value{
			"name":    cty.NullVal(cty.String),
			"size":    cty.NullVal(cty.Number),
			"tags":    cty.NullVal(cty.Map(cty.String)),
			"id":      cty.NullVal(cty.String),
			"setting": cty.ListValEmpty(settingType),
			"zone":    cty.SetValEmpty(zoneType),
			"rule":    cty.MapValEmpty(ruleType),
		}
		for k, v := range vals {
			ret[k] = v
		}
		return cty.ObjectVal(ret)
	}
	unknownResult := cty.UnknownVal(testSchema.ImpliedType())

	tests := map[string]struct {
		src       string
		json      bool
		key       *InstanceKeyData
		want      cty.Value
		wantDiags []diag
	}{
		"empty": {
			src:  ``,
			want: result(nil),
		},
		"attributes": {
			src: `
name = "${var.name}-${local.prefix}"
size = local.count
tags = var.tags
`,
			want: result(map[string]cty.Value{
				"name": str("web-app"),
				"size": num(2),
				"tags": cty.MapVal(map[string]cty.Value{"env": str("dev"), "team": str("core")}),
			}),
		},
		"attribute conversion": {
			src: `size = var.numstr`,
			want: result(map[string]cty.Value{
				"size": num(42),
			}),
		},
		"static blocks": {
			src: `
setting {
  name  = "a"
  value = var.name
  option {
    key = "k"
  }
}
zone {
  name = "z1"
}
rule "ssh" {
  port = 22
}
`,
			want: result(map[string]cty.Value{
				"setting": cty.ListVal([]cty.Value{setting(str("a"), str("web"), option("k"))}),
				"zone":    cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": str("z1")})}),
				"rule":    cty.MapVal(map[string]cty.Value{"ssh": cty.ObjectVal(map[string]cty.Value{"port": num(22)})}),
			}),
		},
		"dynamic block over a list": {
			src: `
dynamic "setting" {
  for_each = var.settings
  content {
    name  = setting.value.name
    value = "${setting.key}:${setting.value.value}"
  }
}
`,
			want: result(map[string]cty.Value{
				"setting": cty.ListVal([]cty.Value{
					setting(str("a"), str("0:1")),
					setting(str("b"), str("1:2")),
				}),
			}),
		},
		"dynamic block with an iterator": {
			src: `
dynamic "zone" {
  for_each = var.zones
  iterator = z
  content {
    name = upper(z.value)
  }
}
`,
			want: result(map[string]cty.Value{
				"zone": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"name": str("A")}),
					cty.ObjectVal(map[string]cty.Value{"name": str("B")}),
					cty.ObjectVal(map[string]cty.Value{"name": str("C")}),
				}),
			}),
		},
		"dynamic block with labels": {
			src: `
dynamic "rule" {
  for_each = var.rules
  labels   = [rule.key]
  content {
    port = rule.value.port
  }
}
`,
			want: result(map[string]cty.Value{
				"rule": cty.MapVal(map[string]cty.Value{
					"ssh":   cty.ObjectVal(map[string]cty.Value{"port": num(22)}),
					"https": cty.ObjectVal(map[string]cty.Value{"port": num(443)}),
				}),
			}),
		},
		"nested dynamic blocks": {
			src: `
dynamic "setting" {
  for_each = ["x", "y"]
  content {
    name = setting.value
    dynamic "option" {
      for_each = var.zones
      content {
        key = "${setting.value}${option.value}"
      }
    }
  }
}
`,
			want: result(map[string]cty.Value{
				"setting": cty.ListVal([]cty.Value{
					setting(str("x"), cty.NullVal(cty.String), option("xa"), option("xb"), option("xc")),
					setting(str("y"), cty.NullVal(cty.String), option("ya"), option("yb"), option("yc")),
				}),
			}),
		},
		"dynamic and static blocks together": {
			src: `
setting {
  name = "first"
}
dynamic "setting" {
  for_each = ["second"]
  content {
    name = setting.value
  }
}
`,
			want: result(map[string]cty.Value{
				"setting": cty.ListVal([]cty.Value{
					setting(str("first"), cty.NullVal(cty.String)),
					setting(str("second"), cty.NullVal(cty.String)),
				}),
			}),
		},
		"dynamic block over an empty list": {
			src: `
dynamic "setting" {
  for_each = []
  content {
    name = setting.value
  }
}
`,
			want: result(nil),
		},
		"dynamic block using count.index": {
			src: `
dynamic "setting" {
  for_each = slice(var.zones, 0, count.index + 1)
  content {
    name = "${setting.value}${count.index}"
  }
}
`,
			key: &InstanceKeyData{CountIndex: num(1)},
			want: result(map[string]cty.Value{
				"setting": cty.ListVal([]cty.Value{
					setting(str("a1"), cty.NullVal(cty.String)),
					setting(str("b1"), cty.NullVal(cty.String)),
				}),
			}),
		},
		"dynamic block using each": {
			src: `
name = each.key
dynamic "zone" {
  for_each = each.value
  content {
    name = zone.value
  }
}
`,
			key: &InstanceKeyData{EachKey: str("k"), EachValue: cty.ListVal([]cty.Value{str("z")})},
			want: result(map[string]cty.Value{
				"name": str("k"),
				"zone": cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": str("z")})}),
			}),
		},
		"dynamic block over an unknown value": {
			src: `
dynamic "setting" {
  for_each = var.unknowns
  content {
    name = setting.value
  }
}
`,
			want: result(map[string]cty.Value{
				"setting": cty.UnknownVal(cty.List(settingType)),
			}),
		},
		"dynamic block over a sensitive value": {
			src: `
dynamic "zone" {
  for_each = var.secret_list
  content {
    name = zone.value
  }
}
`,
			want: result(map[string]cty.Value{
				"zone": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"name": str("s1").Mark(marks.Sensitive)}).Mark(marks.Sensitive),
					cty.ObjectVal(map[string]cty.Value{"name": str("s2").Mark(marks.Sensitive)}).Mark(marks.Sensitive),
				}),
			}),
		},
		"sensitive attribute": {
			src: `name = var.secret`,
			want: result(map[string]cty.Value{
				"name": str("hunter2").Mark(marks.Sensitive),
			}),
		},
		"json": {
			json: true,
			src: `{
  "name": "${var.name}",
  "setting": [{"name": "a"}],
  "dynamic": {
    "zone": {
      "for_each": "${var.zones}",
      "content": {"name": "${zone.value}"}
    }
  }
}`,
			want: result(map[string]cty.Value{
				"name":    str("web"),
				"setting": cty.ListVal([]cty.Value{setting(str("a"), cty.NullVal(cty.String))}),
				"zone": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"name": str("a")}),
					cty.ObjectVal(map[string]cty.Value{"name": str("b")}),
					cty.ObjectVal(map[string]cty.Value{"name": str("c")}),
				}),
			}),
		},

		// Errors.
		"conversion error": {
			src:       `size = var.word`,
			want:      unknownResult,
			wantDiags: []diag{errDiag("Incorrect attribute value type", "1,8-1,16")},
		},
		"conversion error in a dynamic block": {
			src: `
dynamic "rule" {
  for_each = { a = "x" }
  labels   = [rule.key]
  content {
    port = rule.value
  }
}
`,
			want:      unknownResult,
			wantDiags: []diag{errDiag("Incorrect attribute value type", "6,12-6,22")},
		},
		"undeclared reference": {
			src:       `name = var.nope`,
			want:      unknownResult,
			wantDiags: []diag{errDiag("Reference to undeclared input variable", "1,8-1,16")},
		},
		"undeclared reference in for_each": {
			src: `
dynamic "zone" {
  for_each = local.nope
  content {
    name = zone.value
  }
}
`,
			want:      unknownResult,
			wantDiags: []diag{errDiag("Reference to undeclared local value", "3,14-3,24")},
		},
		"count outside a counted resource": {
			src:       `size = count.index`,
			want:      unknownResult,
			wantDiags: []diag{errDiag(`Reference to "count" in non-counted context`, "1,8-1,19")},
		},
		"count in for_each outside a counted resource": {
			src: `
dynamic "zone" {
  for_each = range(count.index)
  content {
    name = zone.value
  }
}
`,
			want:      unknownResult,
			wantDiags: []diag{errDiag(`Reference to "count" in non-counted context`, "3,20-3,31")},
		},
		"each outside a for_each resource": {
			src:       `name = each.key`,
			key:       &InstanceKeyData{CountIndex: num(0)},
			want:      unknownResult,
			wantDiags: []diag{errDiag(`Reference to "each" in context without for_each`, "1,8-1,16")},
		},
		"for_each of the wrong type": {
			src: `
dynamic "zone" {
  for_each = 5
  content {
    name = "x"
  }
}
`,
			want:      unknownResult,
			wantDiags: []diag{errDiag("Invalid dynamic for_each value", "3,14-3,15")},
		},
		"unsupported attribute": {
			src:       `nope = 1`,
			want:      unknownResult,
			wantDiags: []diag{errDiag("Unsupported argument", "1,1-1,5")},
		},
		"computed-only attribute": {
			src:       `id = "x"`,
			want:      unknownResult,
			wantDiags: []diag{errDiag("Unsupported argument", "1,1-1,3")},
		},
		"missing required attribute in a block": {
			src:       "setting {\n  value = \"v\"\n}\n",
			want:      unknownResult,
			wantDiags: []diag{errDiag("Missing required argument", "1,9-1,9")},
		},
		"missing required attribute in a dynamic block": {
			src: `
dynamic "zone" {
  for_each = var.zones
  content {
  }
}
`,
			want: unknownResult,
			wantDiags: []diag{
				errDiag("Missing required argument", "4,11-4,11"),
				errDiag("Missing required argument", "4,11-4,11"),
				errDiag("Missing required argument", "4,11-4,11"),
			},
		},
		"dynamic block of an unknown type": {
			src: `
dynamic "nope" {
  for_each = var.zones
  content {}
}
`,
			want:      unknownResult,
			wantDiags: []diag{errDiag("Unsupported block type", "2,9-2,15")},
		},
		"invalid attribute of a reference": {
			src:       `name = terraform_data.single.nope`,
			want:      unknownResult,
			wantDiags: []diag{errDiag("Unsupported attribute", "1,29-1,34")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			scope := &Scope{Data: newFakeData()}
			if tc.key != nil {
				scope = scope.WithKey(*tc.key)
			}
			body := parseBody
			if tc.json {
				body = parseJSONBody
			}
			got, diags := scope.EvalBlock(body(t, tc.src), testSchema)
			assertDiags(t, diags, tc.wantDiags)
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
			if errs := got.Type().TestConformance(testSchema.ImpliedType()); len(errs) > 0 {
				t.Errorf("result does not conform to the schema: %v", errs)
			}
		})
	}
}

func TestBlockReferences(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		src       string
		want      []string // reference and source range
		wantDiags []diag
	}{
		"attributes": {
			src: `
name = var.name
size = length(terraform_data.counted)
`,
			want: []string{"var.name 2,8-2,16", "terraform_data.counted 3,15-3,37"},
		},
		"static nested blocks": {
			src: `
setting {
  name = local.prefix
  option {
    key = data.terraform_remote_state.net.outputs.k
  }
}
`,
			want: []string{"local.prefix 3,10-3,22", "data.terraform_remote_state.net 5,11-5,42"},
		},
		"dynamic blocks": {
			src: `
dynamic "setting" {
  for_each = var.settings
  content {
    name  = setting.value.name
    value = "${local.prefix}-${setting.key}"
    dynamic "option" {
      for_each = setting.value.options
      content {
        key = "${option.value}-${module.net.k}-${setting.value.name}"
      }
    }
  }
}
dynamic "rule" {
  for_each = var.rules
  labels   = [rule.key, path.module]
  iterator = rule
  content {
    port = each.value
  }
}
`,
			want: []string{
				"var.settings 3,14-3,26",
				"var.rules 16,14-16,23",
				"path.module 17,25-17,36",
				"local.prefix 6,16-6,28",
				"module.net 10,34-10,44",
				"each.value 20,12-20,22",
			},
		},
		"for_each is reported once": {
			src: `
dynamic "zone" {
  for_each = var
  content {
    name = zone.value
  }
}
`,
			wantDiags: []diag{errDiag("Invalid reference", "3,14-3,17")},
		},
		"invalid references": {
			src: `
name = self.name
tags = data.x
`,
			want:      []string{"self 2,8-2,12"},
			wantDiags: []diag{errDiag("Invalid reference", "3,8-3,14")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			refs, diags := BlockReferences(parseBody(t, tc.src), testSchema)
			assertDiags(t, diags, tc.wantDiags)
			var got []string
			for _, r := range refs {
				got = append(got, r.Subject.String()+" "+fmtRange(&r.SourceRange))
			}
			// The walk order depends on the schema's map order; compare as
			// sets.
			if diff := cmp.Diff(sortedStrings(tc.want), sortedStrings(got)); diff != "" {
				t.Errorf("wrong references (-want +got)\n%s", diff)
			}
			// A prepared block finds the same references, or leaves them
			// (and their diagnostics) to BlockReferences.
			body := parseBody(t, tc.src)
			if prefs, ok := PrepareBlock(body, testSchema, testSchema.DecoderSpec()).References(); ok {
				if len(tc.wantDiags) > 0 {
					t.Errorf("prepared references with diagnostics %v", tc.wantDiags)
				}
				var pgot []string
				for _, r := range prefs {
					pgot = append(pgot, r.Subject.String()+" "+fmtRange(&r.SourceRange))
				}
				if diff := cmp.Diff(sortedStrings(got), sortedStrings(pgot)); diff != "" {
					t.Errorf("wrong prepared references (-BlockReferences +prepared)\n%s", diff)
				}
			} else if !mayHaveDynamicBlocks(body) && len(tc.wantDiags) == 0 {
				t.Errorf("references left to BlockReferences without a reason")
			}
		})
	}
}

func sortedStrings(s []string) []string {
	if s == nil {
		return nil
	}
	ret := append([]string(nil), s...)
	slices.Sort(ret)
	return ret
}
