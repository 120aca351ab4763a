package statefile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// marshalIndentWrite is the reference Write checks its layout against: the
// stateV4 structures, dependencies completed as Write completes them,
// encoded by json.MarshalIndent.
func marshalIndentWrite(t *testing.T, s *states.State) []byte {
	t.Helper()
	sv := stateV4{
		Version: CurrentVersion, TerraformVersion: s.TerraformVersion, Serial: s.Serial, Lineage: s.Lineage,
		Outputs: map[string]outputStateV4{}, Resources: []resourceStateV4{}, CheckResults: s.CheckResults,
	}
	if len(sv.CheckResults) == 0 {
		sv.CheckResults = json.RawMessage("null")
	}
	for name, o := range s.Outputs {
		out, err := EncodeOutput(o)
		if err != nil {
			t.Fatal(err)
		}
		sv.Outputs[name] = out
	}
	dc := newDependencyClosure(s)
	encode := func(r *states.Resource, k addrs.InstanceKey, o *states.ObjectSrc) instanceObjectV4 {
		is, err := EncodeObject(o)
		if err != nil {
			t.Fatal(err)
		}
		is.Dependencies = nil
		if deps := dc.strings(dc.complete(r, o)); len(deps) > 0 {
			is.Dependencies, _ = json.Marshal(deps)
		}
		if r.HasProviderKeys() {
			is.Provider = r.InstanceProvider(k).String()
		}
		switch k := k.(type) {
		case addrs.IntKey:
			is.IndexKey, _ = json.Marshal(int(k))
		case addrs.StringKey:
			is.IndexKey, _ = json.Marshal(string(k))
		}
		return is
	}
	for _, r := range s.SortedResources() {
		rs := resourceStateV4{
			Module: r.Addr.Module.String(), Mode: r.Addr.Resource.Mode.StateName(), Type: r.Addr.Resource.Type,
			Name: r.Addr.Resource.Name, Provider: r.ProviderConfig.String(), Instances: []instanceObjectV4{},
		}
		if r.HasProviderKeys() {
			rs.Provider = ""
		}
		for _, k := range r.SortedKeys() {
			inst := r.Instances[k]
			if inst.Current != nil {
				rs.Instances = append(rs.Instances, encode(r, k, inst.Current))
			}
			var dks []string
			for dk := range inst.Deposed {
				dks = append(dks, dk)
			}
			sort.Strings(dks)
			for _, dk := range dks {
				is := encode(r, k, inst.Deposed[dk])
				is.Deposed = dk
				rs.Instances = append(rs.Instances, is)
			}
		}
		sv.Resources = append(sv.Resources, rs)
	}
	buf, err := json.MarshalIndent(sv, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(buf, '\n')
}

// checkLayout fails t unless Write(s) is what json.MarshalIndent writes.
func checkLayout(t *testing.T, s *states.State) {
	t.Helper()
	got, err := Write(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(marshalIndentWrite(t, s)), string(got)); diff != "" {
		t.Errorf("Write differs from json.MarshalIndent (-want +got):\n%s", diff)
	}
}

// TestWriteLayout checks that Write, which writes the document directly,
// lays it out and escapes it exactly as json.MarshalIndent does.
func TestWriteLayout(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("testdata", "roundtrip", "*.in.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range ins {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Read(src)
			if err != nil {
				t.Fatal(err)
			}
			checkLayout(t, s)
		})
	}

	p := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("terraform")}
	odd := "<tag> & \"quotes\" \\ \u2028\u2029 \x01\t\n é \xff"
	tests := map[string]func(s *states.State){
		"empty": func(s *states.State) {},
		"escaping everywhere": func(s *states.State) {
			s.Lineage, s.TerraformVersion = odd, "1.11.4"
			s.Outputs[odd] = &states.OutputValue{Value: cty.StringVal(odd), Sensitive: true}
			s.Outputs["list"] = &states.OutputValue{Value: cty.ListValEmpty(cty.String)}
			s.CheckResults = json.RawMessage(" [ {\"a\" : \"<b>\"} ] \n")
			addr := mustInst(`module.m["<k>"].terraform_data.a`)
			addr.Resource.Key = addrs.StringKey(odd)
			s.SetObject(addr, &states.ObjectSrc{
				AttrsJSON:             []byte(`{"a":"<\u2028>","b":{},"c":[],"d":[1,{"e":null}]}`),
				AttrsFlat:             map[string]string{odd: odd, "%": "1"},
				SensitivePaths:        []cty.Path{cty.GetAttrPath(odd).IndexString(odd)},
				Private:               []byte(odd),
				IdentityJSON:          []byte(` {"id" : "x&y"} `),
				IdentitySchemaVersion: uint64p(0),
				Status:                states.ObjectTainted,
				CreateBeforeDestroy:   true,
				Dependencies:          []addrs.AbsResource{mustRes(`module.m["<k>"].terraform_data.b`), mustRes("terraform_data.c")},
			}, p)
			s.SetObject(mustInst("terraform_data.c[3]"), &states.ObjectSrc{AttrsJSON: []byte(`{}`)}, p)
			s.SetDeposed(mustInst("terraform_data.c[3]"), "d&d", &states.ObjectSrc{
				Dependencies: []addrs.AbsResource{mustRes("data.terraform_remote_state.x")},
			}, p)
			s.SetObject(mustInst("data.terraform_remote_state.x"), &states.ObjectSrc{AttrsJSON: []byte(`{"x":1}`)}, p)
		},
		"resource without instances": func(s *states.State) {
			s.SetObject(mustInst("terraform_data.a"), &states.ObjectSrc{AttrsJSON: []byte(`{}`)}, p)
			s.Resources["terraform_data.a"].Instances = map[addrs.InstanceKey]*states.ResourceInstance{}
		},
	}
	for name, build := range tests {
		t.Run(name, func(t *testing.T) {
			s := states.New()
			build(s)
			checkLayout(t, s)
		})
	}
}
