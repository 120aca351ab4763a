package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
)

// driftSchema is the schema of the stratafw test provider's thing, cut
// down: a write-only attribute, a map, a list nested attribute and a list
// block.
func driftSchema() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":          {Type: cty.String, Computed: true},
			"name":        {Type: cty.String, Required: true},
			"description": {Type: cty.String, Optional: true},
			"size":        {Type: cty.Number, Optional: true, Computed: true},
			"labels":      {Type: cty.Map(cty.String), Optional: true},
			"password_wo": {Type: cty.String, Optional: true, WriteOnly: true},
			"ports":       {Type: cty.List(cty.Number), Optional: true},
			"rules": {Optional: true, NestedType: &configschema.Object{
				Nesting:    configschema.NestingList,
				Attributes: map[string]*configschema.Attribute{"port": {Type: cty.Number, Required: true}, "proto": {Type: cty.String, Optional: true}},
			}},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"tag": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"key": {Type: cty.String, Required: true}, "value": {Type: cty.String, Optional: true},
			}}},
		},
	}
}

type thingVals struct {
	desc, env, team, proto1, tagValue string
	size, port0                       int64
}

func driftThing(v thingVals) cty.Value {
	rule := func(port int64, proto string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": num(port), "proto": str(proto)})
	}
	return cty.ObjectVal(map[string]cty.Value{
		"id": str("fw-a"), "name": str("a"), "description": str(v.desc), "size": num(v.size),
		"labels":      cty.MapVal(map[string]cty.Value{"env": str(v.env), "team": str(v.team)}),
		"password_wo": cty.NullVal(cty.String),
		"ports":       cty.ListVal([]cty.Value{num(v.port0), num(2)}),
		"rules":       cty.ListVal([]cty.Value{rule(v.port0, "tcp"), rule(2, v.proto1)}),
		"tag":         cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"key": str("k"), "value": str(v.tagValue)})}),
	})
}

// TestDriftRelevant checks the filtering of drift to the relevant
// attributes: every other attribute shows unchanged, as Terraform's
// matcher makes it, and a drift left with no difference is not shown.
func TestDriftRelevant(t *testing.T) {
	before := driftThing(thingVals{desc: "orig", env: "dev", team: "x", proto1: "tcp", tagValue: "v", size: 1, port0: 1})
	after := driftThing(thingVals{desc: "changed", env: "prod", team: "y", proto1: "udp", tagValue: "w", size: 5, port0: 9})
	attr := func(steps ...any) cty.Path {
		p := cty.Path{}
		for _, s := range steps {
			switch s := s.(type) {
			case string:
				p = p.GetAttr(s)
			case int:
				p = p.IndexInt(s)
			case cty.Value:
				p = p.Index(s)
			}
		}
		return p
	}
	tests := map[string]struct {
		relevant []cty.Path
		action   plans.Action
		want     string
	}{
		"one attribute": {
			relevant: []cty.Path{attr("description")},
			want: `  # stratafw_thing.a has changed
  ~ resource "stratafw_thing" "a" {
      ~ description = "orig" -> "changed"
        id          = "fw-a"
        name        = "a"
        # (5 unchanged attributes hidden)

        # (1 unchanged block hidden)
    }
`,
		},
		"a map key, by index or by attribute": {
			relevant: []cty.Path{attr("labels", str("env")), attr("ports")},
			want: `  # stratafw_thing.a has changed
  ~ resource "stratafw_thing" "a" {
        id          = "fw-a"
      ~ labels      = {
          ~ "env"  = "dev" -> "prod"
            # (1 unchanged element hidden)
        }
        name        = "a"
      ~ ports       = [
          ~ 1 -> 9,
            2,
        ]
        # (4 unchanged attributes hidden)

        # (1 unchanged block hidden)
    }
`,
		},
		"a nested list element and a block attribute": {
			relevant: []cty.Path{attr("rules", 1, "proto"), attr("tag", str("0"), "value")},
			want: `  # stratafw_thing.a has changed
  ~ resource "stratafw_thing" "a" {
        id          = "fw-a"
        name        = "a"
      ~ rules       = [
          ~ {
              ~ proto = "tcp" -> "udp"
                # (1 unchanged attribute hidden)
            },
            # (1 unchanged element hidden)
        ]
        # (5 unchanged attributes hidden)

      ~ tag {
          ~ value = "v" -> "w"
            # (1 unchanged attribute hidden)
        }
    }
`,
		},
		"the whole object": {
			relevant: []cty.Path{{}, attr("description")},
			want:     ResourceChange(Change{Addr: "stratafw_thing.a", Action: plans.Update, Before: before, After: after, Schema: driftSchema(), Drift: true}),
		},
		"nothing that changed": {
			relevant: []cty.Path{attr("name"), attr("labels", str("other"))},
			want:     "",
		},
		"deleted": {
			relevant: []cty.Path{attr("id")},
			action:   plans.Delete,
			want: `  # stratafw_thing.a has been deleted
  - resource "stratafw_thing" "a" {
      - id          = "fw-a" -> null
        name        = "a"
      - password_wo = (write-only attribute) -> null
        # (5 unchanged attributes hidden)

        # (1 unchanged block hidden)
    }
`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := Change{Addr: "stratafw_thing.a", Action: plans.Update, Before: before, After: after, Schema: driftSchema(), Drift: true, Relevant: tc.relevant}
			if tc.action == plans.Delete {
				c.Action, c.After = plans.Delete, cty.NullVal(driftSchema().ImpliedType())
			}
			got, want := Colorize(ResourceChange(c), true), Colorize(tc.want, true)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
}

// TestWriteOnlyAttribute: Terraform shows a write-only attribute, never
// stored, whenever its block exists, with the block's action.
func TestWriteOnlyAttribute(t *testing.T) {
	s := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":          {Type: cty.String, Computed: true},
		"password_wo": {Type: cty.String, Optional: true, WriteOnly: true},
	}}
	obj := cty.ObjectVal(map[string]cty.Value{"id": str("x"), "password_wo": cty.NullVal(cty.String)})
	null := cty.NullVal(s.ImpliedType())
	tests := map[string]struct {
		action        plans.Action
		before, after cty.Value
		want          string
	}{
		"create": {plans.Create, null, obj, "+ password_wo = (write-only attribute)\n"},
		"delete": {plans.Delete, obj, null, "- password_wo = (write-only attribute) -> null\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Colorize(ResourceChange(Change{Addr: "t.a", Action: tc.action, Before: tc.before, After: tc.after, Schema: s}), true)
			if !strings.Contains(got, tc.want) {
				t.Errorf("no %q in\n%s", tc.want, got)
			}
		})
	}
	state := Colorize(StateResource("t.a", obj, s), true)
	if !strings.Contains(state, "    password_wo = (write-only attribute)\n") {
		t.Errorf("state rendering without the write-only attribute:\n%s", state)
	}
}

// TestDriftOfMovedObjects: the drift of a moved object says where it was
// moved from, and a move alone shows as "has moved to", as Terraform's
// drift does (equivalence tests moved_with_drift and
// moved_with_refresh_only).
func TestDriftOfMovedObjects(t *testing.T) {
	s := terraformDataSchema()
	v := tdVal(str("i"), str("x"), str("x"), nullDyn)
	changed := tdVal(str("i"), str("y"), str("x"), nullDyn)
	tests := map[string]struct {
		c    Change
		want string
	}{
		"changed": {Change{Addr: "terraform_data.b", PrevAddr: "terraform_data.a", Action: plans.Update, Before: v, After: changed, Schema: s, Drift: true}, `  # terraform_data.b has changed
  # (moved from terraform_data.a)
  ~ resource "terraform_data" "b" {
        id     = "i"
      ~ input  = "x" -> "y"
        # (1 unchanged attribute hidden)
    }
`},
		"moved only": {Change{Addr: "terraform_data.b", PrevAddr: "terraform_data.a", Action: plans.NoOp, Before: v, After: v, Schema: s, Drift: true}, `  # terraform_data.a has moved to terraform_data.b
    resource "terraform_data" "b" {
        id     = "i"
        # (2 unchanged attributes hidden)
    }
`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Colorize(ResourceChange(tc.c), true); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s\ndiff\n%s", got, tc.want, lineDiff(tc.want, got))
			}
		})
	}
}
