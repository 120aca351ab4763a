package render

import (
	"os"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
)

// The golden files used here hold text printed by Terraform 1.11
// (`terraform plan -no-color`) for the same change, built here by hand.

var (
	str  = cty.StringVal
	num  = cty.NumberIntVal
	unkS = cty.UnknownVal(cty.String)
)

func tdVal(id, input, output, triggers cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": id, "input": input, "output": output, "triggers_replace": triggers})
}

var nullDyn = cty.NullVal(cty.DynamicPseudoType)

func tdCreate(input cty.Value) Change {
	s := terraformDataSchema()
	return Change{
		Addr: "terraform_data.a", Action: plans.Create, Schema: s,
		Before: cty.NullVal(s.ImpliedType()),
		After:  tdVal(unkS, input, cty.DynamicVal, nullDyn),
	}
}

func tdUpdate(id string, before, after cty.Value) Change {
	s := terraformDataSchema()
	return Change{
		Addr: "terraform_data.a", Action: plans.Update, Schema: s,
		Before: tdVal(str(id), before, before, nullDyn),
		After:  tdVal(str(id), after, cty.DynamicVal, nullDyn),
	}
}

func tdDelete(addr, id string, v cty.Value, reason plans.ActionReason) Change {
	s := terraformDataSchema()
	return Change{
		Addr: addr, Action: plans.Delete, Reason: reason, Schema: s,
		Before: tdVal(str(id), v, v, nullDyn),
		After:  cty.NullVal(s.ImpliedType()),
	}
}

func strs(ss ...string) []cty.Value {
	var out []cty.Value
	for _, s := range ss {
		out = append(out, str(s))
	}
	return out
}

func attr(ty cty.Type) *configschema.Attribute {
	return &configschema.Attribute{Type: ty, Optional: true}
}

func computed(ty cty.Type) *configschema.Attribute {
	return &configschema.Attribute{Type: ty, Computed: true}
}

func nestedAttr(mode configschema.NestingMode, attrs map[string]*configschema.Attribute) *configschema.Attribute {
	return &configschema.Attribute{Optional: true, NestedType: &configschema.Object{Nesting: mode, Attributes: attrs}}
}

func block(mode configschema.NestingMode, attrs map[string]*configschema.Attribute) *configschema.NestedBlock {
	return &configschema.NestedBlock{Nesting: mode, Block: configschema.Block{Attributes: attrs}}
}

// thingSchema is a resource type schema with attributes of every kind,
// nested attribute types of every nesting and nested blocks of every
// nesting. It matches the test provider the golden files were recorded
// with.
func thingSchema() *configschema.Block {
	objTy := cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number})
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":           computed(cty.String),
			"computed_val": computed(cty.String),
			"name":         attr(cty.String),
			"size":         attr(cty.Number),
			"enabled":      attr(cty.Bool),
			"tags":         attr(cty.Map(cty.String)),
			"list":         attr(cty.List(cty.String)),
			"set":          attr(cty.Set(cty.String)),
			"secret":       {Type: cty.String, Optional: true, Sensitive: true},
			"replace_me":   attr(cty.String),
			"description":  attr(cty.String),
			"obj":          attr(objTy),
			"lobj":         attr(cty.List(objTy)),
			"dyn":          attr(cty.DynamicPseudoType),
			"nsingle":      nestedAttr(configschema.NestingSingle, map[string]*configschema.Attribute{"x": attr(cty.String), "y": attr(cty.Number)}),
			"nlist":        nestedAttr(configschema.NestingList, map[string]*configschema.Attribute{"x": attr(cty.String), "y": attr(cty.String)}),
			"nset":         nestedAttr(configschema.NestingSet, map[string]*configschema.Attribute{"x": attr(cty.String)}),
			"nmap":         nestedAttr(configschema.NestingMap, map[string]*configschema.Attribute{"x": attr(cty.String)}),
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"single": block(configschema.NestingSingle, map[string]*configschema.Attribute{"a": attr(cty.String), "b": attr(cty.String)}),
			"item":   block(configschema.NestingList, map[string]*configschema.Attribute{"k": attr(cty.String), "v": attr(cty.String)}),
			"tag":    block(configschema.NestingSet, map[string]*configschema.Attribute{"k": attr(cty.String), "v": attr(cty.String)}),
			"named":  block(configschema.NestingMap, map[string]*configschema.Attribute{"v": attr(cty.String)}),
		},
	}
}

// thingVal builds a thingSchema object from the given attributes, the rest
// null (or empty for block collections).
func thingVal(s *configschema.Block, attrs map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, a := range s.Attributes {
		vals[name] = cty.NullVal(a.ImpliedType())
	}
	for name, nb := range s.BlockTypes {
		vals[name] = nb.EmptyValue()
	}
	for k, v := range attrs {
		vals[k] = v
	}
	return cty.ObjectVal(vals)
}

func objList(attrs ...map[string]cty.Value) []cty.Value {
	var out []cty.Value
	for _, a := range attrs {
		out = append(out, cty.ObjectVal(a))
	}
	return out
}

// nestedObj fills the attributes a nested object leaves out with nulls of
// type string.
func nestedObj(names []string, set map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for _, n := range names {
		vals[n] = cty.NullVal(cty.String)
	}
	for k, v := range set {
		vals[k] = v
	}
	return cty.ObjectVal(vals)
}

func TestResourceChangeGolden(t *testing.T) {
	ts := thingSchema()
	kv := []string{"k", "v"}
	cases := map[string]func() Change{
		"create_string": func() Change { return tdCreate(str("x")) },
		"create_object": func() Change {
			return tdCreate(cty.ObjectVal(map[string]cty.Value{
				"name":   str("x"),
				"list":   cty.TupleVal([]cty.Value{num(1), num(2), str("three")}),
				"nested": cty.ObjectVal(map[string]cty.Value{"enabled": cty.True, "n": cty.NumberFloatVal(1.5)}),
				"empty":  cty.EmptyTupleVal,
				"emptyo": cty.EmptyObjectVal,
				"nul":    nullDyn,
			}))
		},
		"create_list": func() Change { return tdCreate(cty.TupleVal(strs("a", "b", "c", "d", "e", "f"))) },
		"update_string": func() Change {
			return tdUpdate("d1c83d67-e629-47d7-6177-9ef703d22dab", str("x"), str("y"))
		},
		"replace_triggers": func() Change {
			s := terraformDataSchema()
			id := str("4b1a7ae1-8c2d-f7d9-73e4-056f1c40f263")
			return Change{
				Addr: "terraform_data.a", Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseCannotUpdate, Schema: s,
				Before:          tdVal(id, str("x"), str("x"), str("a")),
				After:           tdVal(unkS, str("x"), cty.DynamicVal, str("b")),
				RequiresReplace: []cty.Path{cty.GetAttrPath("triggers_replace")},
			}
		},
		"delete": func() Change {
			return tdDelete("terraform_data.a", "4e17652a-3a35-a73e-f762-cff037fc3b30", str("x"), plans.ReasonDeleteBecauseNoResourceConfig)
		},
		"delete_count_index": func() Change {
			return tdDelete("terraform_data.a[1]", "9b3a43cf-02da-0079-b4c4-c7cca06fa155", str("x1"), plans.ReasonDeleteBecauseCountIndex)
		},
		"create_sensitive": func() Change { return tdCreate(str("secret").Mark(sensitiveMark)) },
		"create_sensitive_attr": func() Change {
			return tdCreate(cty.ObjectVal(map[string]cty.Value{"user": str("bob"), "pass": str("secret").Mark(sensitiveMark)}))
		},
		"update_map_element": func() Change {
			before := cty.MapVal(map[string]cty.Value{"a": str("1"), "b": str("2"), "c": str("3"), "d e": str("4")})
			after := cty.MapVal(map[string]cty.Value{"a": str("1"), "b": str("3"), "c": str("3"), "f": str("5")})
			return tdUpdate("5b35772f-8e44-a415-e206-919318529786", before, after)
		},
		"update_list_element": func() Change {
			return tdUpdate("54b03a5c-d6a2-f30f-f6b2-283a15264070",
				cty.TupleVal(strs("a", "b", "c", "d", "e", "f")),
				cty.TupleVal(strs("a", "b", "x", "d", "e", "f", "g")))
		},
		"update_heredoc": func() Change {
			return tdUpdate("f37971e1-0be7-9bd4-c7f3-85595980026e", str("line1\nline2\nline3\n"), str("line1\nlineX\nline3\n"))
		},
		"update_json": func() Change {
			return tdUpdate("c67d3280-68d0-3965-aa2d-30fbf9863fa6",
				str(`{"a":1,"b":["x","y"],"c":{"d":true}}`),
				str(`{"a":2,"b":["x","z"],"c":{"d":true}}`))
		},
		"nested_blocks_update": func() Change {
			common := map[string]cty.Value{"id": str("val-id"), "computed_val": str("val-computed_val"), "name": str("x")}
			with := func(single, v2 string) map[string]cty.Value {
				m := map[string]cty.Value{
					"single": cty.ObjectVal(map[string]cty.Value{"a": str(single), "b": cty.NullVal(cty.String)}),
					"item": cty.ListVal([]cty.Value{
						nestedObj(kv, map[string]cty.Value{"k": str("k1")}),
						nestedObj(kv, map[string]cty.Value{"k": str("k2"), "v": str(v2)}),
					}),
					"named": cty.MapVal(map[string]cty.Value{"n1": cty.ObjectVal(map[string]cty.Value{"v": str("x")})}),
				}
				for k, v := range common {
					m[k] = v
				}
				return m
			}
			return Change{Addr: "tp_thing.a", Action: plans.Update, Schema: ts,
				Before: thingVal(ts, with("s", "v2")), After: thingVal(ts, with("s2", "v3"))}
		},
		"nested_attributes_update": func() Change {
			xy := []string{"x", "y"}
			before := thingVal(ts, map[string]cty.Value{
				"id": str("val-id"), "computed_val": str("val-computed_val"), "name": str("x"),
				"nsingle": cty.ObjectVal(map[string]cty.Value{"x": str("a"), "y": cty.NullVal(cty.Number)}),
				"nlist":   cty.ListVal([]cty.Value{nestedObj(xy, map[string]cty.Value{"x": str("1")}), nestedObj(xy, map[string]cty.Value{"x": str("2")})}),
				"obj":     cty.ObjectVal(map[string]cty.Value{"a": str("x"), "b": num(1)}),
				"tags":    cty.MapVal(map[string]cty.Value{"a": str("b")}),
			})
			after := thingVal(ts, map[string]cty.Value{
				"id": str("val-id"), "computed_val": str("val-computed_val"), "name": str("x"),
				"nlist": cty.ListVal([]cty.Value{nestedObj(xy, map[string]cty.Value{"x": str("2")})}),
			})
			return Change{Addr: "tp_thing.a", Action: plans.Update, Schema: ts, Before: before, After: after}
		},
		"forces_replacement": func() Change {
			val := func(id, cv cty.Value, rep, tag, single string) cty.Value {
				return thingVal(ts, map[string]cty.Value{
					"id": id, "computed_val": cv, "name": str("x"), "replace_me": str(rep),
					"tags":   cty.MapVal(map[string]cty.Value{"a": str(tag)}),
					"single": cty.ObjectVal(map[string]cty.Value{"a": str(single), "b": cty.NullVal(cty.String)}),
				})
			}
			return Change{Addr: "tp_thing.a", Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseCannotUpdate, Schema: ts,
				Before:          val(str("val-id"), str("val-computed_val"), "a", "1", "s"),
				After:           val(unkS, unkS, "b", "2", "t"),
				RequiresReplace: []cty.Path{cty.GetAttrPath("replace_me")},
			}
		},
		"nested_create": func() Change {
			after := thingVal(ts, map[string]cty.Value{
				"id": unkS, "computed_val": unkS, "name": str("x"), "size": num(3), "enabled": cty.True,
				"tags":        cty.MapVal(map[string]cty.Value{"a": str("1"), "b": str("2"), "c d": str("3")}),
				"list":        cty.ListVal(strs("a", "b", "c", "d", "e")),
				"set":         cty.SetVal(strs("p", "q", "r")),
				"secret":      str("hunter2"),
				"replace_me":  str("a"),
				"obj":         cty.ObjectVal(map[string]cty.Value{"a": str("x"), "b": num(1)}),
				"lobj":        cty.ListVal(objList(map[string]cty.Value{"a": str("x"), "b": num(1)}, map[string]cty.Value{"a": str("y"), "b": num(2)})),
				"description": str("hello\nworld\n"),
				"dyn":         cty.ObjectVal(map[string]cty.Value{"k": str("v")}),
				"nsingle":     cty.ObjectVal(map[string]cty.Value{"x": str("a"), "y": num(1)}),
				"nlist": cty.ListVal([]cty.Value{
					nestedObj([]string{"x", "y"}, map[string]cty.Value{"x": str("1")}),
					nestedObj([]string{"x", "y"}, map[string]cty.Value{"x": str("2"), "y": str("b")}),
				}),
				"nset": cty.SetVal(objList(map[string]cty.Value{"x": str("s1")}, map[string]cty.Value{"x": str("s2")})),
				"nmap": cty.MapVal(map[string]cty.Value{
					"m1": cty.ObjectVal(map[string]cty.Value{"x": str("a")}),
					"m2": cty.ObjectVal(map[string]cty.Value{"x": str("b")}),
				}),
				"single": cty.ObjectVal(map[string]cty.Value{"a": str("s"), "b": str("t")}),
				"item": cty.ListVal([]cty.Value{
					nestedObj(kv, map[string]cty.Value{"k": str("k1")}),
					nestedObj(kv, map[string]cty.Value{"k": str("k2"), "v": str("v2")}),
				}),
				"tag": cty.SetVal([]cty.Value{nestedObj(kv, map[string]cty.Value{"k": str("t1"), "v": str("x")})}),
				"named": cty.MapVal(map[string]cty.Value{
					"n1": cty.ObjectVal(map[string]cty.Value{"v": str("x")}),
					"n2": cty.ObjectVal(map[string]cty.Value{"v": str("y")}),
				}),
			})
			return Change{Addr: "tp_thing.a", Action: plans.Create, Schema: ts, Before: cty.NullVal(ts.ImpliedType()), After: after}
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile("testdata/" + name + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			got := Colorize(ResourceChange(mk()), true)
			if got != string(want) {
				t.Errorf("got\n%s\nwant\n%s\ndiff\n%s", got, want, lineDiff(string(want), got))
			}
		})
	}
}

func TestOutputChangesGolden(t *testing.T) {
	tup := func(vs ...cty.Value) cty.Value { return cty.TupleVal(vs) }
	obj := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	nested := func(b int64) cty.Value {
		return obj(map[string]cty.Value{"b": tup(num(1), num(b))})
	}
	o := func(a string, b int64) cty.Value {
		return obj(map[string]cty.Value{"a": str(a), "nested": nested(b), "e": cty.EmptyTupleVal, "eo": cty.EmptyObjectVal})
	}
	outs := []Output{
		{Name: "deleted", Action: plans.Delete, Before: str("bye"), After: cty.NullVal(cty.String)},
		{Name: "json", Action: plans.Update, Before: str(`{"a":1}`), After: str(`{"a":2}`)},
		{Name: "l", Action: plans.Update, Before: tup(str("a"), str("b")), After: tup(str("a"), str("c"))},
		{Name: "long_output_name", Action: plans.Update, Before: cty.True, After: cty.False},
		{Name: "multi", Action: plans.Update, Before: str("l1\nl2\n"), After: str("l1\nl3\n")},
		{Name: "n", Action: plans.Update, Before: cty.NumberFloatVal(1.5), After: num(2)},
		{Name: "new", Action: plans.Create, Before: cty.NullVal(cty.DynamicPseudoType), After: obj(map[string]cty.Value{"k": str("v")})},
		{Name: "nul", Action: plans.Update, Before: cty.NullVal(cty.DynamicPseudoType), After: str("now")},
		{Name: "o", Action: plans.Update, Before: o("x", 2), After: o("y", 3)},
		{Name: "s", Action: plans.Update, Before: str("str"), After: str("str2")},
		{Name: "sens", Action: plans.Update, Before: str("secret"), After: str("secret2"), Sensitive: true},
		{Name: "tl", Action: plans.Update, Before: cty.ListVal(strs("a", "b")), After: cty.ListVal(strs("a", "b", "c"))},
		{Name: "tm", Action: plans.Update,
			Before: cty.MapVal(map[string]cty.Value{"a": str("1"), "b c": str("2")}),
			After:  cty.MapVal(map[string]cty.Value{"a": str("1"), "b c": str("3")})},
		{Name: "tonull", Action: plans.Delete, Before: str("x"), After: cty.NullVal(cty.DynamicPseudoType)},
		{Name: "ts", Action: plans.Update, Before: cty.SetVal(strs("a", "b")), After: cty.SetVal(strs("a", "c"))},
		{Name: "unchanged", Action: plans.NoOp, Before: str("same"), After: str("same")},
		{Name: "unknown", Action: plans.Create, Before: cty.NullVal(cty.DynamicPseudoType), After: cty.DynamicVal},
	}
	want, err := os.ReadFile("testdata/output_changes.golden")
	if err != nil {
		t.Fatal(err)
	}
	if got := Colorize(OutputChanges(outs), true); got != string(want) {
		t.Errorf("got\n%s\nwant\n%s\ndiff\n%s", got, want, lineDiff(string(want), got))
	}
	// A single line is not padded.
	if got, want := Colorize(OutputChange("o", plans.Create, cty.NullVal(cty.String), str("x"), false), true), `  + o = "x"`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := Colorize(OutputChange("o", plans.Update, str("a"), str("b"), false), true), `  ~ o = "a" -> "b"`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := Colorize(OutputChange("o", plans.Create, cty.NullVal(cty.String), str("x"), true), true), `  + o = (sensitive value)`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := OutputChange("o", plans.NoOp, str("a"), str("a"), false); got != "" {
		t.Errorf("no-op output rendered as %q", got)
	}
}
