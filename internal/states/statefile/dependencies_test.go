package statefile

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// TestWriteDependencyClosure checks that a snapshot records each object's
// full, sorted set of dependencies, as Terraform does, from the direct ones
// the engine records.
func TestWriteDependencyClosure(t *testing.T) {
	p := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("terraform")}
	obj := func(deps ...string) *states.ObjectSrc {
		o := &states.ObjectSrc{AttrsJSON: []byte(`{}`), Status: states.ObjectReady}
		for _, d := range deps {
			o.Dependencies = append(o.Dependencies, mustRes(d))
		}
		return o
	}
	tests := map[string]struct {
		objects map[string]*states.ObjectSrc
		deposed map[string]*states.ObjectSrc
		want    map[string][]string
	}{
		"chain": {
			objects: map[string]*states.ObjectSrc{
				"terraform_data.a": obj(),
				"terraform_data.b": obj("terraform_data.a"),
				"terraform_data.c": obj("terraform_data.b"),
				"terraform_data.d": obj("terraform_data.c"),
			},
			want: map[string][]string{
				"terraform_data.b": {"terraform_data.a"},
				"terraform_data.c": {"terraform_data.a", "terraform_data.b"},
				"terraform_data.d": {"terraform_data.a", "terraform_data.b", "terraform_data.c"},
			},
		},
		"through module instances": {
			objects: map[string]*states.ObjectSrc{
				"terraform_data.root":                obj(),
				`module.m["x"].terraform_data.in`:    obj("terraform_data.root"),
				`module.m["y"].terraform_data.in`:    obj("terraform_data.root"),
				`module.m["x"].terraform_data.other`: obj("module.m.terraform_data.in"),
				"terraform_data.last":                obj("module.m.terraform_data.other"),
			},
			want: map[string][]string{
				`module.m["x"].terraform_data.in`:    {"terraform_data.root"},
				`module.m["y"].terraform_data.in`:    {"terraform_data.root"},
				`module.m["x"].terraform_data.other`: {"module.m.terraform_data.in", "terraform_data.root"},
				"terraform_data.last":                {"module.m.terraform_data.in", "module.m.terraform_data.other", "terraform_data.root"},
			},
		},
		"complete list kept in recorded order": {
			objects: map[string]*states.ObjectSrc{
				"terraform_data.a": obj(),
				"terraform_data.b": obj(),
				"terraform_data.c": obj("terraform_data.b", "terraform_data.a"),
			},
			want: map[string][]string{
				"terraform_data.c": {"terraform_data.b", "terraform_data.a"},
			},
		},
		"missing dependency ends the walk": {
			objects: map[string]*states.ObjectSrc{
				"terraform_data.b": obj("terraform_data.gone"),
				"terraform_data.c": obj("terraform_data.b"),
			},
			want: map[string][]string{
				"terraform_data.b": {"terraform_data.gone"},
				"terraform_data.c": {"terraform_data.b", "terraform_data.gone"},
			},
		},
		"cycle in a hand-edited state": {
			objects: map[string]*states.ObjectSrc{
				"terraform_data.a": obj("terraform_data.b"),
				"terraform_data.b": obj("terraform_data.a"),
				"terraform_data.c": obj("terraform_data.a"),
			},
			want: map[string][]string{
				"terraform_data.a": {"terraform_data.b"},
				"terraform_data.b": {"terraform_data.a"},
				"terraform_data.c": {"terraform_data.a", "terraform_data.b"},
			},
		},
		"deposed objects completed too": {
			objects: map[string]*states.ObjectSrc{
				"terraform_data.a": obj(),
				"terraform_data.b": obj("terraform_data.a"),
				"terraform_data.c": obj(),
			},
			deposed: map[string]*states.ObjectSrc{
				"terraform_data.c": obj("terraform_data.b"),
			},
			want: map[string][]string{
				"terraform_data.b":         {"terraform_data.a"},
				"terraform_data.c":         nil,
				"terraform_data.c deposed": {"terraform_data.a", "terraform_data.b"},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := states.New()
			for addr, o := range tc.objects {
				s.SetObject(mustInst(addr), o, p)
			}
			for addr, o := range tc.deposed {
				s.SetDeposed(mustInst(addr), "00000001", o, p)
			}
			before := map[string]int{}
			for addr, o := range tc.objects {
				before[addr] = len(o.Dependencies)
			}
			data, err := Write(s)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Resources []struct {
					Module, Type, Name string
					Instances          []struct {
						Deposed      string   `json:"deposed"`
						Dependencies []string `json:"dependencies"`
					}
				}
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{}
			for _, r := range doc.Resources {
				for _, inst := range r.Instances {
					addr := r.Type + "." + r.Name
					if r.Module != "" {
						addr = r.Module + "." + addr
					}
					if inst.Deposed != "" {
						addr += " deposed"
					}
					if len(inst.Dependencies) > 0 || tc.want[addr] != nil {
						got[addr] = inst.Dependencies
					}
				}
			}
			want := map[string][]string{}
			for k, v := range tc.want {
				if v != nil {
					want[k] = v
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("dependencies (-want +got):\n%s", diff)
			}
			for addr, o := range tc.objects {
				if len(o.Dependencies) != before[addr] {
					t.Errorf("%s: Write changed the in-memory object's dependencies", addr)
				}
			}
		})
	}
}
