package render

import (
	"os"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/plans"
)

// headerOf returns the comment lines of a rendered change.
func headerOf(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "  # ") {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestHeaders(t *testing.T) {
	s := terraformDataSchema()
	v := tdVal(str("i"), str("x"), str("x"), nullDyn)
	null := cty.NullVal(s.ImpliedType())
	cases := []struct {
		name string
		c    Change
		want string
	}{
		{"deposed", Change{Addr: "terraform_data.a", Deposed: "00aa11bb", Action: plans.Delete, Before: v, After: null},
			"  # terraform_data.a (deposed object 00aa11bb) will be destroyed\n  # (left over from a partially-failed replacement of this instance)"},
		{"wrong repetition, no key", Change{Addr: "terraform_data.a", Action: plans.Delete, Reason: plans.ReasonDeleteBecauseWrongRepetition, Before: v, After: null},
			"  # terraform_data.a will be destroyed\n  # (because resource uses count or for_each)"},
		{"wrong repetition, index", Change{Addr: "terraform_data.a[0]", Action: plans.Delete, Reason: plans.ReasonDeleteBecauseWrongRepetition, Before: v, After: null},
			"  # terraform_data.a[0] will be destroyed\n  # (because resource does not use count)"},
		{"wrong repetition, key", Change{Addr: `terraform_data.a["k"]`, Action: plans.Delete, Reason: plans.ReasonDeleteBecauseWrongRepetition, Before: v, After: null},
			"  # terraform_data.a[\"k\"] will be destroyed\n  # (because resource does not use for_each)"},
		{"each key", Change{Addr: `module.m["a.b"].terraform_data.a["x.y"]`, Action: plans.Delete, Reason: plans.ReasonDeleteBecauseEachKey, Before: v, After: null},
			"  # module.m[\"a.b\"].terraform_data.a[\"x.y\"] will be destroyed\n  # (because key [\"x.y\"] is not in for_each map)"},
		{"no config in module", Change{Addr: "module.m.terraform_data.a[2]", Action: plans.Delete, Reason: plans.ReasonDeleteBecauseNoResourceConfig, Before: v, After: null},
			"  # module.m.terraform_data.a[2] will be destroyed\n  # (because terraform_data.a is not in configuration)"},
		{"tainted, create before destroy", Change{Addr: "terraform_data.a", Action: plans.CreateThenDelete, Reason: plans.ReasonReplaceBecauseTainted, Before: v, After: v},
			"  # terraform_data.a is tainted, so must be replaced"},
		{"requested", Change{Addr: "terraform_data.a", Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceByRequest, Before: v, After: v},
			"  # terraform_data.a will be replaced, as requested"},
		{"moved and updated", Change{Addr: "terraform_data.b", PrevAddr: "terraform_data.a", Action: plans.Update, Before: v, After: v},
			"  # terraform_data.b will be updated in-place\n  # (moved from terraform_data.a)"},
		{"moved only", Change{Addr: "terraform_data.b", PrevAddr: "terraform_data.a", Action: plans.NoOp, Before: v, After: v},
			"  # terraform_data.a has moved to terraform_data.b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Schema = s
			if got := headerOf(Colorize(ResourceChange(tc.c), true)); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}

	if got := ResourceChange(Change{Addr: "terraform_data.a", Action: plans.NoOp, Before: v, After: v, Schema: s}); got != "" {
		t.Errorf("no-op change rendered: %q", got)
	}
}

func TestResourceLine(t *testing.T) {
	s := terraformDataSchema()
	v := tdVal(str("i"), str("x"), str("x"), nullDyn)
	for _, tc := range []struct {
		act  plans.Action
		addr string
		want string
	}{
		{plans.CreateThenDelete, "terraform_data.a", `+/- resource "terraform_data" "a" {`},
		{plans.DeleteThenCreate, "terraform_data.a", `-/+ resource "terraform_data" "a" {`},
		{plans.Read, "data.terraform_data.a", ` <= data "terraform_data" "a" {`},
		{plans.Update, "module.x[0].terraform_data.a", `  ~ resource "terraform_data" "a" {`},
	} {
		out := Colorize(ResourceChange(Change{Addr: tc.addr, Action: tc.act, Before: v, After: tdVal(str("i"), str("y"), cty.DynamicVal, nullDyn), Schema: s}), true)
		if !strings.Contains(out, "\n"+tc.want+"\n") {
			t.Errorf("%s: no line %q in\n%s", tc.act, tc.want, out)
		}
	}
}

func TestReadReasons(t *testing.T) {
	s := terraformDataSchema()
	known := tdVal(unkS, str("x"), cty.DynamicVal, nullDyn)
	unknown := tdVal(unkS, cty.DynamicVal, cty.DynamicVal, nullDyn)
	null := cty.NullVal(s.ImpliedType())
	got := headerOf(Colorize(ResourceChange(Change{Addr: "data.x.y", Action: plans.Read, Before: null, After: unknown, Schema: s}), true))
	if want := "  # data.x.y will be read during apply\n  # (config refers to values not yet known)"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = headerOf(Colorize(ResourceChange(Change{Addr: "data.x.y", Action: plans.Read, Before: null, After: known, Schema: s}), true))
	if want := "  # data.x.y will be read during apply\n  # (depends on a resource or a module with changes pending)"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestColorize(t *testing.T) {
	c := tdCreate(str("[red]not markup[reset]"))
	plain := Colorize(ResourceChange(c), true)
	if !strings.Contains(plain, `+ input  = "[red]not markup[reset]"`) {
		t.Errorf("markup in a value was not preserved:\n%s", plain)
	}
	colored := Colorize(ResourceChange(c), false)
	if !strings.Contains(colored, "\x1b[32m+\x1b[0m") || !strings.Contains(colored, `"[red]not markup[reset]"`) {
		t.Errorf("unexpected colored output:\n%q", colored)
	}
	if strings.Contains(colored, escMarker) || strings.Contains(plain, escMarker) {
		t.Error("escape marker left in output")
	}
}

func TestValue(t *testing.T) {
	objTy := cty.Object(map[string]cty.Type{"a": cty.String})
	cases := []struct {
		v      cty.Value
		indent int
		want   string
	}{
		{str("x"), 0, `"x"`},
		{str(`q"t` + "\t"), 0, `"q\"t\t"`},
		{cty.NumberFloatVal(-1.5), 0, `-1.5`},
		{cty.MustParseNumberVal("1e21"), 0, `1000000000000000000000`},
		{cty.True, 0, `true`},
		{cty.DynamicVal, 0, `(known after apply)`},
		{cty.UnknownVal(cty.List(cty.String)), 0, `(known after apply)`},
		{str("secret").Mark(sensitiveMark), 0, `(sensitive value)`},
		{cty.NullVal(cty.DynamicPseudoType), 0, `null`},
		{cty.NullVal(cty.String), 0, `tostring(null)`},
		{cty.NullVal(cty.Number), 0, `tonumber(null)`},
		{cty.NullVal(cty.Bool), 0, `tobool(null)`},
		{cty.NullVal(cty.List(cty.String)), 0, `tolist(null) /* of string */`},
		{cty.NullVal(cty.Set(cty.Number)), 0, `toset(null) /* of number */`},
		{cty.NullVal(cty.Map(cty.Bool)), 0, `tomap(null) /* of bool */`},
		{cty.NullVal(objTy), 0, `null /* object */`},
		{cty.ListValEmpty(cty.String), 0, `tolist([])`},
		{cty.SetValEmpty(cty.String), 0, `toset([])`},
		{cty.MapValEmpty(cty.String), 0, `tomap({})`},
		{cty.EmptyTupleVal, 0, `[]`},
		{cty.EmptyObjectVal, 0, `{}`},
		{cty.ListVal(strs("a", "b")), 0, "tolist([\n  \"a\",\n  \"b\",\n])"},
		{cty.SetVal([]cty.Value{num(2), num(1)}), 0, "toset([\n  1,\n  2,\n])"},
		{cty.MapVal(map[string]cty.Value{"b": str("1"), "a b": str("2")}), 0, "tomap({\n  \"a b\" = \"2\"\n  \"b\" = \"1\"\n})"},
		{cty.TupleVal([]cty.Value{str("a"), cty.EmptyTupleVal}), 2, "[\n    \"a\",\n    [],\n  ]"},
		{cty.ObjectVal(map[string]cty.Value{"a": str("x"), "s": str("y").Mark(sensitiveMark)}), 0, "{\n  \"a\" = \"x\"\n  \"s\" = (sensitive value)\n}"},
		{str("a\nb"), 0, "<<EOT\na\nb\nEOT"},
		{str("a\nEOT\n"), 2, "<<-EOT_\n  a\n  EOT\n  \n  EOT_"},
		{cty.ObjectVal(map[string]cty.Value{"t": str("x\ny")}), 0, "{\n  \"t\" = <<-EOT\n  x\n  y\n  EOT\n}"},
	}
	for _, tc := range cases {
		if got := Colorize(Value(tc.v, tc.indent), true); got != tc.want {
			t.Errorf("Value(%#v, %d)\ngot:\n%s\nwant:\n%s", tc.v, tc.indent, got, tc.want)
		}
	}
}

func TestStateResourceData(t *testing.T) {
	s := terraformDataSchema()
	got := Colorize(StateResource("data.terraform_data.d", tdVal(str("i"), cty.ListVal(strs("a")), nullDyn, nullDyn), s), true)
	want := `# data.terraform_data.d:
data "terraform_data" "d" {
    id    = "i"
    input = [
        "a",
    ]
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, want := Colorize(StateOutput("o", str("x"), true), true), "o = (sensitive value)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestAlignSeq(t *testing.T) {
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ",")
	}
	render := func(b, a string) string {
		bk, ak := split(b), split(a)
		var out []string
		for _, p := range alignSeq(bk, ak, nil) {
			switch {
			case p.b < 0:
				out = append(out, "+"+ak[p.a])
			case p.a < 0:
				out = append(out, "-"+bk[p.b])
			case bk[p.b] == ak[p.a]:
				out = append(out, bk[p.b])
			default:
				out = append(out, bk[p.b]+">"+ak[p.a])
			}
		}
		return strings.Join(out, " ")
	}
	// Expectations observed from Terraform 1.11 for lists of strings.
	for _, tc := range []struct{ b, a, want string }{
		{"a,b,c", "a,b,c,d", "a b c +d"},
		{"a,b,c,d", "x,a,b,c", "a>x b>a c>b d>c"},
		{"a,b", "b,a", "-a b +a"},
		{"a,b,c", "c,a,b", "+c a b -c"},
		{"a,a,b", "a,b,b", "a -a b +b"},
		{"a,b,c", "a,a,b", "a b>a c>b"},
		{"a,a,b", "a,b,c", "a -a b +c"},
		{"a,b,c,d", "a,b,x,y,z", "a b -c -d +x +y +z"},
		{"", "a", "+a"},
		{"a", "", "-a"},
	} {
		if got := render(tc.b, tc.a); got != tc.want {
			t.Errorf("%s -> %s: got %q, want %q", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestNilSchema(t *testing.T) {
	c := tdCreate(str("x"))
	c.Schema = nil
	want, _ := os.ReadFile("testdata/create_string.golden")
	if got := Colorize(ResourceChange(c), true); got != string(want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWhollyUnknown(t *testing.T) {
	s := terraformDataSchema()
	got := Colorize(ResourceChange(Change{Addr: "data.terraform_data.d", Action: plans.Read, Schema: s,
		Before: cty.NullVal(s.ImpliedType()), After: cty.UnknownVal(s.ImpliedType())}), true)
	want := `  # data.terraform_data.d will be read during apply
  # (config refers to values not yet known)
 <= data "terraform_data" "d" {
      + id               = (known after apply)
      + input            = (known after apply)
      + output           = (known after apply)
      + triggers_replace = (known after apply)
    }
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestNestedAttributeUnknownAndSensitive(t *testing.T) {
	ts := thingSchema()
	ts.Attributes["nsingle"].NestedType.Attributes["x"].Sensitive = true
	before := thingVal(ts, map[string]cty.Value{
		"id":      str("i"),
		"nsingle": cty.ObjectVal(map[string]cty.Value{"x": str("a"), "y": num(1)}),
		"nlist":   cty.ListVal([]cty.Value{nestedObj([]string{"x", "y"}, map[string]cty.Value{"x": str("1")})}),
		"nset":    cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": str("s")})}),
	})
	after := thingVal(ts, map[string]cty.Value{
		"id":      str("i"),
		"nsingle": cty.ObjectVal(map[string]cty.Value{"x": str("b"), "y": num(1)}),
		"nlist":   cty.UnknownVal(ts.Attributes["nlist"].ImpliedType()),
		"nset":    cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.UnknownVal(cty.String)})}),
	})
	got := Colorize(ResourceChange(Change{Addr: "tp_thing.a", Action: plans.Update, Schema: ts, Before: before, After: after}), true)
	want := `  # tp_thing.a will be updated in-place
  ~ resource "tp_thing" "a" {
        id      = "i"
      ~ nlist   = [
          - {
              - x = "1" -> null
            },
        ] -> (known after apply)
      ~ nset    = [
          - {
              - x = "s" -> null
            },
          + {
              + x = (known after apply)
            },
        ]
      ~ nsingle = {
          ~ x = (sensitive value)
            # (1 unchanged attribute hidden)
        }
    }
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s\ndiff\n%s", got, want, lineDiff(want, got))
	}
}

// TestNestedMapKeysUnaligned: the keys of a nested attribute of map
// nesting are not padded to one width, in a plan or a state, as in
// Terraform's equivalence test fully_populated_complex
// (`+ "key_four" = {` above `+ "key_one" = {`); a map's keys are.
func TestNestedMapKeysUnaligned(t *testing.T) {
	ts := thingSchema()
	after := thingVal(ts, map[string]cty.Value{
		"id": str("i"),
		"nmap": cty.MapVal(map[string]cty.Value{
			"a":   cty.ObjectVal(map[string]cty.Value{"x": str("1")}),
			"bbb": cty.ObjectVal(map[string]cty.Value{"x": str("2")}),
		}),
		"tags": cty.MapVal(map[string]cty.Value{"a": str("1"), "bbb": str("2")}),
	})
	got := Colorize(ResourceChange(Change{Addr: "tp_thing.a", Action: plans.Create, Schema: ts, Before: cty.NullVal(ts.ImpliedType()), After: after}), true)
	want := `  # tp_thing.a will be created
  + resource "tp_thing" "a" {
      + id   = "i"
      + nmap = {
          + "a" = {
              + x = "1"
            },
          + "bbb" = {
              + x = "2"
            },
        }
      + tags = {
          + "a"   = "1"
          + "bbb" = "2"
        }
    }
`
	if got != want {
		t.Errorf("plan: got\n%s\nwant\n%s\ndiff\n%s", got, want, lineDiff(want, got))
	}
	got = Colorize(StateResource("tp_thing.a", after, ts), true)
	want = `# tp_thing.a:
resource "tp_thing" "a" {
    id   = "i"
    nmap = {
        "a" = {
            x = "1"
        },
        "bbb" = {
            x = "2"
        },
    }
    tags = {
        "a"   = "1"
        "bbb" = "2"
    }
}
`
	if got != want {
		t.Errorf("state: got\n%s\nwant\n%s\ndiff\n%s", got, want, lineDiff(want, got))
	}
}

// TestNestedForcesReplacementPlacement: when a nested attribute of set or
// map nesting forces replacement, Terraform marks each changed element
// "# forces replacement" rather than the attribute (equivalence test
// replace_within_set); one of list nesting is marked itself.
func TestNestedForcesReplacementPlacement(t *testing.T) {
	ts := thingSchema()
	obj := func(x string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"x": str(x)}) }
	obj2 := func(x string) cty.Value { return nestedObj([]string{"x", "y"}, map[string]cty.Value{"x": str(x)}) }
	before := thingVal(ts, map[string]cty.Value{
		"id":    str("i"),
		"nset":  cty.SetVal([]cty.Value{obj("k"), obj("a")}),
		"nmap":  cty.MapVal(map[string]cty.Value{"k": obj("k"), "x": obj("a")}),
		"nlist": cty.ListVal([]cty.Value{obj2("k"), obj2("a")}),
	})
	after := thingVal(ts, map[string]cty.Value{
		"id":    unkS,
		"nset":  cty.SetVal([]cty.Value{obj("k"), obj("b")}),
		"nmap":  cty.MapVal(map[string]cty.Value{"k": obj("k"), "x": obj("b")}),
		"nlist": cty.ListVal([]cty.Value{obj2("k"), obj2("b")}),
	})
	got := Colorize(ResourceChange(Change{
		Addr: "tp_thing.a", Action: plans.DeleteThenCreate, Schema: ts, Before: before, After: after,
		RequiresReplace: []cty.Path{cty.GetAttrPath("nset"), cty.GetAttrPath("nmap"), cty.GetAttrPath("nlist")},
	}), true)
	want := `  # tp_thing.a must be replaced
-/+ resource "tp_thing" "a" {
      ~ id    = "i" -> (known after apply)
      ~ nlist = [ # forces replacement
          ~ {
              ~ x = "a" -> "b"
            },
            # (1 unchanged element hidden)
        ]
      ~ nmap  = {
          ~ "x" = { # forces replacement
              ~ x = "a" -> "b"
            },
            # (1 unchanged element hidden)
        }
      ~ nset  = [
          - { # forces replacement
              - x = "a" -> null
            },
          + { # forces replacement
              + x = "b"
            },
            # (1 unchanged element hidden)
        ]
    }
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s\ndiff\n%s", got, want, lineDiff(want, got))
	}
}
