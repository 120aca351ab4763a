package states

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

var builtin = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

func inst(t testing.TB, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", s, diags.Error())
	}
	return a
}

func object(id string) *ObjectSrc {
	return &ObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `"}`), Status: ObjectReady}
}

func addrStrings(as []addrs.AbsResourceInstance) []string {
	ret := make([]string, len(as))
	for i, a := range as {
		ret[i] = a.String()
	}
	return ret
}

func TestSetObject(t *testing.T) {
	type op struct {
		addr    string
		deposed string
		id      string // "" removes
	}
	tests := map[string]struct {
		ops []op
		// want maps instance addresses to "current id" plus deposed ids as
		// "key=id".
		want map[string][]string
	}{
		"add": {
			ops:  []op{{addr: "terraform_data.a", id: "1"}},
			want: map[string][]string{"terraform_data.a": {"1"}},
		},
		"replace": {
			ops:  []op{{addr: "terraform_data.a", id: "1"}, {addr: "terraform_data.a", id: "2"}},
			want: map[string][]string{"terraform_data.a": {"2"}},
		},
		"remove last instance removes the resource": {
			ops:  []op{{addr: "terraform_data.a[0]", id: "1"}, {addr: "terraform_data.a[0]"}},
			want: map[string][]string{},
		},
		"remove one of two instances": {
			ops:  []op{{addr: "terraform_data.a[0]", id: "1"}, {addr: "terraform_data.a[1]", id: "2"}, {addr: "terraform_data.a[0]"}},
			want: map[string][]string{"terraform_data.a[1]": {"2"}},
		},
		"remove missing is a no-op": {
			ops:  []op{{addr: "terraform_data.a"}, {addr: "terraform_data.b", deposed: "k"}},
			want: map[string][]string{},
		},
		"deposed keeps the instance": {
			ops: []op{
				{addr: "terraform_data.a", id: "old"},
				{addr: "terraform_data.a", deposed: "k1", id: "old"},
				{addr: "terraform_data.a"},
			},
			want: map[string][]string{"terraform_data.a": {"", "k1=old"}},
		},
		"removing the last deposed object removes the instance": {
			ops: []op{
				{addr: "terraform_data.a", deposed: "k1", id: "x"},
				{addr: "terraform_data.a", deposed: "k2", id: "y"},
				{addr: "terraform_data.a", deposed: "k1"},
				{addr: "terraform_data.a", deposed: "k2"},
			},
			want: map[string][]string{},
		},
		"modules are separate": {
			ops: []op{
				{addr: `module.m["a"].terraform_data.x`, id: "a"},
				{addr: `module.m["b"].terraform_data.x`, id: "b"},
				{addr: "terraform_data.x", id: "root"},
				{addr: `module.m["a"].terraform_data.x`},
			},
			want: map[string][]string{`module.m["b"].terraform_data.x`: {"b"}, "terraform_data.x": {"root"}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := New()
			for _, o := range tc.ops {
				var obj *ObjectSrc
				if o.id != "" {
					obj = object(o.id)
				}
				if o.deposed == "" {
					s.SetObject(inst(t, o.addr), obj, builtin)
				} else {
					s.SetDeposed(inst(t, o.addr), o.deposed, obj, builtin)
				}
			}
			got := map[string][]string{}
			for _, r := range s.Resources {
				if len(r.Instances) == 0 {
					t.Errorf("resource %s left without instances", r.Addr)
				}
				for k, ri := range r.Instances {
					var entry []string
					if ri.Current != nil {
						entry = append(entry, string(ri.Current.AttrsJSON[7:len(ri.Current.AttrsJSON)-2]))
					} else {
						entry = append(entry, "")
					}
					for dk, d := range ri.Deposed {
						entry = append(entry, dk+"="+string(d.AttrsJSON[7:len(d.AttrsJSON)-2]))
					}
					got[r.Addr.Instance(k).String()] = entry
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if s.Empty() != (len(tc.want) == 0) {
				t.Errorf("Empty() = %v", s.Empty())
			}
		})
	}
}

func TestObjectLookup(t *testing.T) {
	s := New()
	s.SetObject(inst(t, "terraform_data.a[1]"), object("1"), builtin)
	if s.Object(inst(t, "terraform_data.a[1]")) == nil {
		t.Error("present object not found")
	}
	for _, missing := range []string{"terraform_data.a[0]", "terraform_data.a", `terraform_data.a["1"]`, "terraform_data.b[1]", "data.terraform_data.a[1]", "module.m.terraform_data.a[1]"} {
		if s.Object(inst(t, missing)) != nil {
			t.Errorf("%s found", missing)
		}
	}
	var nilState *State
	if !nilState.Empty() || nilState.DeepCopy() != nil {
		t.Error("nil state")
	}
}

func TestAllInstancesOrder(t *testing.T) {
	s := New()
	for _, a := range []string{
		"terraform_data.b[10]", "terraform_data.b[2]", "terraform_data.b[0]",
		`terraform_data.a["z"]`, `terraform_data.a["B"]`, `terraform_data.a["a"]`,
		"data.terraform_remote_state.z", "module.m.terraform_data.a", `module.m["x"].data.d_x.y`,
		"aaa_x.y", "terraform_data.A",
	} {
		s.SetObject(inst(t, a), object(a), builtin)
	}
	want := []string{
		"data.terraform_remote_state.z",
		"aaa_x.y",
		"terraform_data.A",
		`terraform_data.a["B"]`, `terraform_data.a["a"]`, `terraform_data.a["z"]`,
		"terraform_data.b[0]", "terraform_data.b[2]", "terraform_data.b[10]",
		"module.m.terraform_data.a",
		`module.m["x"].data.d_x.y`,
	}
	if diff := cmp.Diff(want, addrStrings(s.AllInstances())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDeepCopy(t *testing.T) {
	s := New()
	s.Lineage, s.Serial, s.TerraformVersion = "l", 3, "v"
	s.CheckResults = []byte(`[]`)
	s.SetObject(inst(t, "terraform_data.a"), object("a"), builtin)
	s.SetDeposed(inst(t, "terraform_data.a"), "k", object("old"), builtin)
	s.Outputs["o"] = &OutputValue{Value: cty.StringVal("v")}

	c := s.DeepCopy()
	if c.Lineage != "l" || c.Serial != 3 || c.TerraformVersion != "v" || string(c.CheckResults) != "[]" {
		t.Fatalf("header not copied: %+v", c)
	}
	// Changing the copy leaves the original alone.
	c.SetObject(inst(t, "terraform_data.b"), object("b"), builtin)
	c.Object(inst(t, "terraform_data.a")).Status = ObjectTainted
	c.Resources["terraform_data.a"].Instances[addrs.NoKey].Deposed["k"].Status = ObjectTainted
	c.SetDeposed(inst(t, "terraform_data.a"), "k2", object("x"), builtin)
	c.Outputs["o"].Sensitive = true
	c.Outputs["p"] = &OutputValue{Value: cty.True}

	if s.Resources["terraform_data.b"] != nil || len(s.Resources) != 1 {
		t.Error("resource added to the original")
	}
	if s.Object(inst(t, "terraform_data.a")).Status != ObjectReady {
		t.Error("current object shared")
	}
	ri := s.Resources["terraform_data.a"].Instances[addrs.NoKey]
	if ri.Deposed["k"].Status != ObjectReady || len(ri.Deposed) != 1 {
		t.Error("deposed objects shared")
	}
	if s.Outputs["o"].Sensitive || len(s.Outputs) != 1 {
		t.Error("outputs shared")
	}
}

func TestSortedKeys(t *testing.T) {
	r := &Resource{Instances: map[addrs.InstanceKey]*ResourceInstance{}}
	for _, k := range []addrs.InstanceKey{addrs.IntKey(11), addrs.IntKey(1), addrs.IntKey(2)} {
		r.Instances[k] = &ResourceInstance{}
	}
	var got []string
	for _, k := range r.SortedKeys() {
		got = append(got, fmt.Sprint(k))
	}
	if diff := cmp.Diff([]string{"[1]", "[2]", "[11]"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// fingerprint renders every resource of s: its provider and, by instance,
// its provider key, current object and deposed objects.
func fingerprint(s *State) []string {
	var out []string
	for _, r := range s.SortedResources() {
		for _, k := range r.SortedKeys() {
			inst := r.Instances[k]
			line := fmt.Sprintf("%s %s %v", r.Addr.Instance(k), r.InstanceProvider(k), inst.ProviderKey)
			if inst.Current != nil {
				line += fmt.Sprintf(" current=%s/%d", inst.Current.AttrsJSON, inst.Current.Status)
			}
			for dk, d := range inst.Deposed {
				line += fmt.Sprintf(" %s=%s", dk, d.AttrsJSON)
			}
			out = append(out, line)
		}
	}
	return out
}

// TestCopyOnWrite checks that a copy-on-write copy changed through its
// methods ends as a deep copy changed the same way would, and that the
// original never sees the changes.
func TestCopyOnWrite(t *testing.T) {
	aliased := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform"), Alias: "other"}
	tests := map[string]func(t *testing.T, s *State){
		"nothing":         func(t *testing.T, s *State) {},
		"replace current": func(t *testing.T, s *State) { s.SetObject(inst(t, "terraform_data.a"), object("a2"), builtin) },
		"remove current":  func(t *testing.T, s *State) { s.SetObject(inst(t, "terraform_data.a"), nil, builtin) },
		"remove instance": func(t *testing.T, s *State) { s.SetObject(inst(t, "terraform_data.c[1]"), nil, builtin) },
		"add instance":    func(t *testing.T, s *State) { s.SetObject(inst(t, "terraform_data.c[2]"), object("c2"), builtin) },
		"add resource":    func(t *testing.T, s *State) { s.SetObject(inst(t, "module.m.terraform_data.n"), object("n"), builtin) },
		"change provider": func(t *testing.T, s *State) { s.SetObject(inst(t, "terraform_data.a"), object("a"), aliased) },
		"add deposed":     func(t *testing.T, s *State) { s.SetDeposed(inst(t, "terraform_data.c[0]"), "k2", object("d"), builtin) },
		"remove deposed":  func(t *testing.T, s *State) { s.SetDeposed(inst(t, "terraform_data.a"), "k", nil, builtin) },
		"move resource": func(t *testing.T, s *State) {
			s.MoveResource(inst(t, "terraform_data.c[0]").ContainingResource(), inst(t, "terraform_data.moved").ContainingResource())
		},
		"move instance": func(t *testing.T, s *State) {
			s.MoveInstance(inst(t, "terraform_data.a"), inst(t, "terraform_data.c[5]"))
		},
		"change then more": func(t *testing.T, s *State) {
			s.SetObject(inst(t, "terraform_data.c[0]"), object("x"), builtin)
			s.SetObject(inst(t, "terraform_data.c[1]"), object("y"), builtin)
		},
	}
	for name, change := range tests {
		t.Run(name, func(t *testing.T) {
			s := New()
			s.Lineage, s.Serial = "l", 3
			s.SetObject(inst(t, "terraform_data.a"), object("a"), builtin)
			s.SetDeposed(inst(t, "terraform_data.a"), "k", object("old"), builtin)
			s.SetObject(inst(t, "terraform_data.c[0]"), object("c0"), builtin)
			s.SetObject(inst(t, "terraform_data.c[1]"), object("c1"), builtin)
			s.Outputs["o"] = &OutputValue{Value: cty.StringVal("v")}
			before := fingerprint(s)

			deep, cow := s.DeepCopy(), s.CopyOnWrite()
			change(t, deep)
			change(t, cow)
			cow.Outputs["p"] = &OutputValue{Value: cty.True}
			if diff := cmp.Diff(fingerprint(deep), fingerprint(cow)); diff != "" {
				t.Errorf("copy-on-write copy differs from a deep copy (-deep +cow):\n%s", diff)
			}
			if diff := cmp.Diff(before, fingerprint(s)); diff != "" {
				t.Errorf("original changed (-before +after):\n%s", diff)
			}
			if cow.Lineage != "l" || cow.Serial != 3 || len(s.Outputs) != 1 {
				t.Errorf("header or outputs: copy %s/%d, original outputs %d", cow.Lineage, cow.Serial, len(s.Outputs))
			}
			// A copy of the copy is independent of both.
			again := cow.CopyOnWrite()
			again.SetObject(inst(t, "terraform_data.a"), object("z"), builtin)
			if diff := cmp.Diff(fingerprint(deep), fingerprint(cow)); diff != "" {
				t.Errorf("copy changed by its own copy (-want +got):\n%s", diff)
			}
		})
	}
}
