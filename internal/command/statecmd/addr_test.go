package statecmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

func TestParseStateTarget(t *testing.T) {
	tests := map[string]struct {
		in         string
		wantString string
		wantKind   string // module, resource or instance
		wantErr    string
	}{
		"resource":               {in: "terraform_data.a", wantString: "terraform_data.a", wantKind: "resource"},
		"instance":               {in: "terraform_data.a[0]", wantString: "terraform_data.a[0]", wantKind: "instance"},
		"string key":             {in: `terraform_data.a["x"]`, wantString: `terraform_data.a["x"]`, wantKind: "instance"},
		"data resource":          {in: "data.terraform_remote_state.r", wantString: "data.terraform_remote_state.r", wantKind: "resource"},
		"module":                 {in: "module.m", wantString: "module.m", wantKind: "module"},
		"keyed nested module":    {in: `module.k["a"].module.deep`, wantString: `module.k["a"].module.deep`, wantKind: "module"},
		"resource in module":     {in: `module.k["a"].terraform_data.x`, wantString: `module.k["a"].terraform_data.x`, wantKind: "resource"},
		"instance in module":     {in: "module.k[1].terraform_data.x[2]", wantString: "module.k[1].terraform_data.x[2]", wantKind: "instance"},
		"bad syntax":             {in: "bad[[", wantErr: "Index value required"},
		"lone name":              {in: "terraform_data", wantErr: "Resource specification must include a resource type and name."},
		"module without name":    {in: "module", wantErr: `Invalid address operator; Prefix "module." must be followed by a module name.`},
		"module then type only":  {in: "module.m.terraform_data", wantErr: "Invalid address; Resource specification must include a resource type and name."},
		"index on module word":   {in: "module[0].m", wantErr: "Invalid address operator"},
		"negative index":         {in: "terraform_data.a[-1]", wantErr: "Index value required"},
		"empty":                  {in: "", wantErr: "Variable name required"},
		"trailing attribute":     {in: "terraform_data.a.id", wantErr: "Resource instance key must be given in square brackets."},
		"resource index on type": {in: "terraform_data[0].a", wantErr: "Invalid address; A resource name is required."},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, diags := parseStateTarget(tc.in)
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", diags, tc.wantErr)
				}
				// As Terraform's: "line 1" of a source that has no name.
				if d := diags[0]; d.Subject == nil || d.Subject.Filename != "" || d.Subject.Start.Line != 1 {
					t.Errorf("the diagnostic points at %v, want line 1 of an unnamed source", d.Subject)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			kind := "resource"
			if got.isModule() {
				kind = "module"
			} else if got.isInstance() {
				kind = "instance"
			}
			if got.String() != tc.wantString || kind != tc.wantKind {
				t.Errorf("got %s (%s), want %s (%s)", got, kind, tc.wantString, tc.wantKind)
			}
		})
	}
}

func TestStateTargetContains(t *testing.T) {
	instances := []string{
		"terraform_data.a", "terraform_data.b[0]", "terraform_data.b[1]", `terraform_data.c["x"]`,
		"data.terraform_data.b",
		`module.k["a"].terraform_data.b[0]`, `module.k["b"].terraform_data.b[0]`,
		`module.k["a"].module.deep.terraform_data.leaf`, "module.m.terraform_data.b[0]",
		"module.mm.terraform_data.b[0]",
	}
	tests := map[string][]string{
		"terraform_data.b":               {"terraform_data.b[0]", "terraform_data.b[1]"},
		"terraform_data.b[1]":            {"terraform_data.b[1]"},
		"terraform_data.a":               {"terraform_data.a"},
		"data.terraform_data.b":          {"data.terraform_data.b"},
		"module.m":                       {"module.m.terraform_data.b[0]"},
		"module.k":                       {`module.k["a"].terraform_data.b[0]`, `module.k["b"].terraform_data.b[0]`, `module.k["a"].module.deep.terraform_data.leaf`},
		`module.k["a"]`:                  {`module.k["a"].terraform_data.b[0]`, `module.k["a"].module.deep.terraform_data.leaf`},
		"module.k.module.deep":           {`module.k["a"].module.deep.terraform_data.leaf`},
		"module.k.terraform_data.b":      nil, // resources match their module exactly
		`module.k["b"].terraform_data.b`: {`module.k["b"].terraform_data.b[0]`},
		"terraform_data.b[7]":            nil,
	}
	for target, want := range tests {
		t.Run(target, func(t *testing.T) {
			t.Parallel()
			tgt, diags := parseStateTarget(target)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			var got []string
			for _, s := range instances {
				addr := mustInstance(t, s)
				if tgt.containsInstance(addr) {
					got = append(got, s)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}

func mustInstance(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatalf("bad address %q: %s", s, diags.Error())
	}
	return a
}

var testProvider = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

// testState returns a state with a ready object for each address, its id
// being the address.
func testState(t *testing.T, instances ...string) *states.State {
	t.Helper()
	s := states.New()
	s.Lineage = "test"
	for _, a := range instances {
		id, _ := json.Marshal(map[string]string{"id": a})
		s.SetObject(mustInstance(t, a), &states.ObjectSrc{AttrsJSON: id, Status: states.ObjectReady}, testProvider)
	}
	return s
}

// instanceIDs lists "address=id" for every current object, in list order.
func instanceIDs(s *states.State) []string {
	var ret []string
	for _, a := range listOrder(s) {
		ret = append(ret, a.String()+"="+objectID(s, a))
	}
	return ret
}

func TestListOrder(t *testing.T) {
	s := testState(t, "module.m.module.deep.terraform_data.leaf", `module.k["b"].terraform_data.inner`,
		"terraform_data.b[10]", "terraform_data.b[2]", "data.terraform_data.z", `module.k["a"].terraform_data.inner`,
		"module.m.terraform_data.inner", "terraform_data.a")
	var got []string
	for _, a := range listOrder(s) {
		got = append(got, a.String())
	}
	// Terraform's order: modules by depth, then by address; data
	// resources first; keys numerically.
	want := []string{"data.terraform_data.z", "terraform_data.a", "terraform_data.b[2]", "terraform_data.b[10]",
		`module.k["a"].terraform_data.inner`, `module.k["b"].terraform_data.inner`, "module.m.terraform_data.inner",
		"module.m.module.deep.terraform_data.leaf"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong result (-want +got):\n%s", diff)
	}
}

func TestMoveInState(t *testing.T) {
	base := []string{"terraform_data.a", "terraform_data.b[0]", "terraform_data.b[1]", "data.terraform_data.d",
		"module.m.terraform_data.inner", "module.m.module.deep.terraform_data.leaf", `module.k["a"].terraform_data.inner`}
	tests := map[string]struct {
		from, to  string
		want      []string // address=id after the move
		wantMoved []string // "from -> to" reported; default: the arguments
		wantErr   string
	}{
		"rename resource": {from: "terraform_data.b", to: "terraform_data.c",
			want: []string{"data.terraform_data.d=data.terraform_data.d", "terraform_data.a=terraform_data.a",
				"terraform_data.c[0]=terraform_data.b[0]", "terraform_data.c[1]=terraform_data.b[1]",
				`module.k["a"].terraform_data.inner=module.k["a"].terraform_data.inner`,
				"module.m.terraform_data.inner=module.m.terraform_data.inner",
				"module.m.module.deep.terraform_data.leaf=module.m.module.deep.terraform_data.leaf"}},
		"resource into a module": {from: "terraform_data.a", to: "module.x.terraform_data.a",
			want: []string{"data.terraform_data.d=data.terraform_data.d",
				"terraform_data.b[0]=terraform_data.b[0]", "terraform_data.b[1]=terraform_data.b[1]",
				`module.k["a"].terraform_data.inner=module.k["a"].terraform_data.inner`,
				"module.m.terraform_data.inner=module.m.terraform_data.inner",
				"module.x.terraform_data.a=terraform_data.a",
				"module.m.module.deep.terraform_data.leaf=module.m.module.deep.terraform_data.leaf"}},
		"instance to new resource": {from: "terraform_data.b[1]", to: "terraform_data.z",
			want: []string{"data.terraform_data.d=data.terraform_data.d", "terraform_data.a=terraform_data.a",
				"terraform_data.b[0]=terraform_data.b[0]", "terraform_data.z=terraform_data.b[1]",
				`module.k["a"].terraform_data.inner=module.k["a"].terraform_data.inner`,
				"module.m.terraform_data.inner=module.m.terraform_data.inner",
				"module.m.module.deep.terraform_data.leaf=module.m.module.deep.terraform_data.leaf"}},
		"instance to new key of the same resource": {from: "terraform_data.b[1]", to: "terraform_data.b[5]",
			want: []string{"data.terraform_data.d=data.terraform_data.d", "terraform_data.a=terraform_data.a",
				"terraform_data.b[0]=terraform_data.b[0]", "terraform_data.b[5]=terraform_data.b[1]",
				`module.k["a"].terraform_data.inner=module.k["a"].terraform_data.inner`,
				"module.m.terraform_data.inner=module.m.terraform_data.inner",
				"module.m.module.deep.terraform_data.leaf=module.m.module.deep.terraform_data.leaf"}},
		"single instance gets a key": {from: "terraform_data.a", to: "terraform_data.b[2]",
			want: []string{"data.terraform_data.d=data.terraform_data.d",
				"terraform_data.b[0]=terraform_data.b[0]", "terraform_data.b[1]=terraform_data.b[1]", "terraform_data.b[2]=terraform_data.a",
				`module.k["a"].terraform_data.inner=module.k["a"].terraform_data.inner`,
				"module.m.terraform_data.inner=module.m.terraform_data.inner",
				"module.m.module.deep.terraform_data.leaf=module.m.module.deep.terraform_data.leaf"}},
		"counted resource to a key": {from: "terraform_data.b", to: "terraform_data.z[0]",
			wantErr: "the source is a whole resource (not a resource instance) so the target must also be a whole resource"},
		"instance with no key into existing resource": {from: "terraform_data.b[0]", to: "terraform_data.a",
			wantErr: "Cannot move to terraform_data.a: there is already a resource instance at that address"},
		"module rename keeps children": {from: "module.m", to: `module.n["x"]`,
			wantMoved: []string{`module.m -> module.n["x"]`, `module.m.module.deep -> module.n["x"].module.deep`},
			want: []string{"data.terraform_data.d=data.terraform_data.d", "terraform_data.a=terraform_data.a",
				"terraform_data.b[0]=terraform_data.b[0]", "terraform_data.b[1]=terraform_data.b[1]",
				`module.k["a"].terraform_data.inner=module.k["a"].terraform_data.inner`,
				`module.n["x"].terraform_data.inner=module.m.terraform_data.inner`,
				`module.n["x"].module.deep.terraform_data.leaf=module.m.module.deep.terraform_data.leaf`}},
		"nested module to the root of a module": {from: "module.m.module.deep", to: "module.top",
			want: []string{"data.terraform_data.d=data.terraform_data.d", "terraform_data.a=terraform_data.a",
				"terraform_data.b[0]=terraform_data.b[0]", "terraform_data.b[1]=terraform_data.b[1]",
				`module.k["a"].terraform_data.inner=module.k["a"].terraform_data.inner`,
				"module.m.terraform_data.inner=module.m.terraform_data.inner",
				"module.top.terraform_data.leaf=module.m.module.deep.terraform_data.leaf"}},
		"module matches its key exactly": {from: "module.k", to: "module.z",
			wantErr: "Cannot move module.k: does not match anything in the current state."},
		"module onto existing module": {from: `module.k["a"]`, to: "module.m",
			wantErr: "there is already a module at that address"},
		"module to a resource":          {from: "module.m", to: "terraform_data.q", wantErr: "the target must also be a module"},
		"missing source":                {from: "terraform_data.zz", to: "terraform_data.y", wantErr: "Cannot move terraform_data.zz: does not match anything"},
		"missing instance":              {from: "terraform_data.b[9]", to: "terraform_data.y", wantErr: "does not match anything"},
		"types differ":                  {from: "terraform_data.a", to: "null_resource.a", wantErr: "resource types don't match"},
		"managed to data":               {from: "terraform_data.a", to: "data.terraform_data.a", wantErr: "a managed resource can be moved only to another managed resource address"},
		"data to managed":               {from: "data.terraform_data.d", to: "terraform_data.d", wantErr: "a data resource can be moved only to another data resource address"},
		"resource onto resource":        {from: "terraform_data.b", to: "module.m.terraform_data.inner", wantErr: "there is already a resource at that address"},
		"instance onto itself":          {from: "terraform_data.b[0]", to: "terraform_data.b[0]", wantErr: "there is already a resource instance at that address"},
		"instance to a module":          {from: "terraform_data.b[0]", to: "module.x", wantErr: "the target must also be a resource instance"},
		"resource to a module":          {from: "terraform_data.b", to: "module.x", wantErr: "the target must also be a whole resource"},
		"single instance to a module":   {from: "terraform_data.a", to: "module.x", wantErr: "the target must also be a resource instance"},
		"instance onto other in module": {from: "terraform_data.b[0]", to: "module.m.terraform_data.inner", wantErr: "there is already a resource instance"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := testState(t, base...)
			before := instanceIDs(s)
			from, diags := parseStateTarget(tc.from)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			to, diags := parseStateTarget(tc.to)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			moved, diags := moveInState(s, s, from, to, "the current state")
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", diags, tc.wantErr)
				}
				if diff := cmp.Diff(before, instanceIDs(s)); diff != "" {
					t.Errorf("a refused move changed the state (-before +after):\n%s", diff)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if diff := cmp.Diff(tc.want, instanceIDs(s)); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
			wantMoved := tc.wantMoved
			if wantMoved == nil {
				wantMoved = []string{tc.from + " -> " + tc.to}
			}
			var gotMoved []string
			for _, m := range moved {
				gotMoved = append(gotMoved, m.from+" -> "+m.to)
			}
			if diff := cmp.Diff(wantMoved, gotMoved); diff != "" {
				t.Errorf("wrong report (-want +got):\n%s", diff)
			}
			for key, r := range s.Resources {
				if key != r.Addr.String() {
					t.Errorf("resource %s is filed under %s", r.Addr, key)
				}
			}
		})
	}
}

// TestMoveBetweenStates: with -state-out the object leaves one state and
// arrives in the other; what is already in the destination blocks it.
func TestMoveBetweenStates(t *testing.T) {
	src := testState(t, "terraform_data.a", "terraform_data.b[0]", "module.m.terraform_data.x")
	dst := testState(t, "terraform_data.other")
	move := func(from, to string) error {
		f, _ := parseStateTarget(from)
		tt, _ := parseStateTarget(to)
		if _, diags := moveInState(src, dst, f, tt, "the destination state"); diags.HasErrors() {
			return diags
		}
		return nil
	}
	if err := move("terraform_data.a", "terraform_data.a"); err != nil {
		t.Fatal(err)
	}
	if err := move("terraform_data.b[0]", "terraform_data.other"); err == nil || !strings.Contains(err.Error(), "in the destination state") {
		t.Fatalf("got %v, want a conflict in the destination state", err)
	}
	if err := move("module.m", "module.m"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"terraform_data.b[0]=terraform_data.b[0]"}, instanceIDs(src)); diff != "" {
		t.Errorf("wrong source (-want +got):\n%s", diff)
	}
	want := []string{"terraform_data.a=terraform_data.a", "terraform_data.other=terraform_data.other", "module.m.terraform_data.x=module.m.terraform_data.x"}
	if diff := cmp.Diff(want, instanceIDs(dst)); diff != "" {
		t.Errorf("wrong destination (-want +got):\n%s", diff)
	}
}
