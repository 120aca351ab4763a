package render

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
)

func TestReplaceReasons(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"name": {Type: cty.String, Required: true},
		"zone": {Type: cty.String, Optional: true},
		"tags": {Type: cty.Map(cty.String), Optional: true},
	}}
	obj := func(name, zone, env string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"name": cty.StringVal(name), "zone": cty.StringVal(zone),
			"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal(env)}),
		})
	}
	tests := map[string]struct {
		change Change
		want   string // the note line, "" for none
	}{
		"force new paths, delete first": {
			Change{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseCannotUpdate,
				Before: obj("a", "z1", "dev"), After: obj("b", "z2", "prod"),
				RequiresReplace: []cty.Path{cty.GetAttrPath("name"), cty.GetAttrPath("zone"), cty.GetAttrPath("tags").Index(cty.StringVal("env")), cty.GetAttrPath("name")}},
			"  # (strata) replaced because: `name`, `zone`, `tags[\"env\"]` changed (force new); destroy first, then create (no create_before_destroy)",
		},
		"create before destroy": {
			Change{Action: plans.CreateThenDelete, Reason: plans.ReasonReplaceBecauseCannotUpdate,
				Before: obj("a", "z", "dev"), After: obj("b", "z", "dev"), RequiresReplace: []cty.Path{cty.GetAttrPath("name")}},
			"  # (strata) replaced because: `name` changed (force new); create the new object first, then destroy the old one (create_before_destroy)",
		},
		"tainted": {
			Change{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseTainted, Before: obj("a", "z", "dev"), After: obj("a", "z", "dev")},
			"  # (strata) replaced because: the object is tainted (a create or provisioner failed, or it was tainted by hand); destroy first, then create (no create_before_destroy)",
		},
		"requested": {
			Change{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceByRequest, Before: obj("a", "z", "dev"), After: obj("a", "z", "dev")},
			"  # (strata) replaced because: -replace names it; destroy first, then create (no create_before_destroy)",
		},
		"triggers": {
			Change{Action: plans.CreateThenDelete, Reason: plans.ReasonReplaceByTriggers, Before: obj("a", "z", "dev"), After: obj("a", "z", "dev")},
			"  # (strata) replaced because: a reference in lifecycle replace_triggered_by changed; create the new object first, then destroy the old one (create_before_destroy)",
		},
		"update": {
			Change{Action: plans.Update, Before: obj("a", "z", "dev"), After: obj("b", "z", "dev")},
			"",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tc.change.Addr, tc.change.Schema = "test_thing.a", schema
			without := ResourceChange(tc.change)
			tc.change.ReplaceReasons = true
			with := ResourceChange(tc.change)
			var notes []string
			for _, l := range strings.Split(with, "\n") {
				if strings.Contains(l, StrataNotePrefix) {
					notes = append(notes, l)
				}
			}
			want := []string{}
			if tc.want != "" {
				want = append(want, tc.want)
			}
			if strings.Join(notes, "\n") != strings.Join(want, "\n") {
				t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), tc.want)
			}
			// The note is one line added after the header and nothing else.
			if got := strings.Replace(with, tc.want+"\n", "", 1); tc.want != "" && got != without {
				t.Errorf("the note changes more than its line:\n%s\nwithout it:\n%s", with, without)
			}
			if strings.Contains(without, StrataNotePrefix) {
				t.Errorf("a note without ReplaceReasons:\n%s", without)
			}
		})
	}
}
