package upgrade_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// TestReadV3 reads a Terraform 0.11 state through statefile.Read, which
// upgrades it, and checks the resulting model.
func TestReadV3(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "v3-terraform-0.11.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := statefile.Read(src)
	if err != nil {
		t.Fatal(err)
	}
	if s.Lineage != "5f1e7c4a-2b9d-4c1e-9a6f-3d2b1c0e9f8a" || s.Serial != 14 || s.TerraformVersion != "0.11.14" {
		t.Errorf("header: %q %d %q", s.Lineage, s.Serial, s.TerraformVersion)
	}

	type inst struct {
		Addr       string
		Deposed    string
		Status     string
		Schema     uint64
		ID         string
		Provider   string
		Dependency []string
	}
	var got []inst
	for _, r := range s.SortedResources() {
		for _, k := range r.SortedKeys() {
			ri := r.Instances[k]
			add := func(deposed string, o *states.ObjectSrc) {
				status := "ready"
				if o.Status == states.ObjectTainted {
					status = "tainted"
				}
				var deps []string
				for _, d := range o.Dependencies {
					deps = append(deps, d.String())
				}
				got = append(got, inst{
					Addr: r.Addr.Instance(k).String(), Deposed: deposed, Status: status, Schema: o.SchemaVersion,
					ID: o.AttrsFlat["id"], Provider: r.ProviderConfig.String(), Dependency: deps,
				})
			}
			if ri.Current != nil {
				add("", ri.Current)
			}
			var dks []string
			for dk := range ri.Deposed {
				dks = append(dks, dk)
			}
			sort.Strings(dks)
			for _, dk := range dks {
				add(dk, ri.Deposed[dk])
			}
		}
	}
	aws := `provider["registry.terraform.io/hashicorp/aws"]`
	deps := []string{"aws_security_group.sg", "data.aws_ami.ubuntu"}
	want := []inst{
		{Addr: "data.aws_ami.ubuntu", Status: "ready", ID: "ami-123", Provider: aws},
		{Addr: "aws_instance.foo[0]", Status: "ready", Schema: 1, ID: "i-0aaa", Provider: aws, Dependency: deps},
		{Addr: "aws_instance.foo[1]", Status: "tainted", Schema: 1, ID: "i-0bbb", Provider: aws, Dependency: deps},
		{Addr: "aws_instance.foo[1]", Deposed: "00000001", Status: "ready", ID: "i-0old1", Provider: aws, Dependency: deps},
		{Addr: "aws_instance.foo[1]", Deposed: "00000002", Status: "tainted", ID: "i-0old2", Provider: aws, Dependency: deps},
		{Addr: "aws_security_group.sg", Status: "ready", ID: "sg-1", Provider: aws + ".west"},
		{Addr: "module.child.data.template_file.t", Status: "ready", ID: "abc", Provider: `provider["registry.terraform.io/hashicorp/template"]`},
		{
			Addr: "module.child.null_resource.n", Status: "ready", ID: "42", Provider: `provider["registry.terraform.io/hashicorp/null"]`,
			Dependency: []string{"module.child.data.template_file.t"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("instances (-want +got):\n%s", diff)
	}

	wantOutputs := map[string]*states.OutputValue{
		"address": {Value: cty.StringVal("10.0.0.10")},
		"ids":     {Value: cty.ListVal([]cty.Value{cty.StringVal("i-0aaa"), cty.StringVal("i-0bbb")})},
		"tags":    {Value: cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod"), "team": cty.StringVal("infra")}), Sensitive: true},
	}
	if diff := cmp.Diff(wantOutputs, s.Outputs, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}

	// The flat attributes are kept for the provider to decode.
	obj := s.Object(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_instance", Name: "foo"}.Absolute(nil).Instance(addrs.IntKey(0)))
	if diff := cmp.Diff(map[string]string{"ami": "ami-123", "id": "i-0aaa", "tags.%": "1", "tags.Name": "foo-0"}, obj.AttrsFlat); diff != "" {
		t.Errorf("flat attributes (-want +got):\n%s", diff)
	}
	if obj.AttrsJSON != nil {
		t.Errorf("AttrsJSON = %s, want nil", obj.AttrsJSON)
	}

	// Writing the upgraded state gives version 4, which reads back the same.
	out, err := statefile.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := statefile.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	again, err := statefile.Write(back)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(out), string(again)); diff != "" {
		t.Errorf("v4 round trip (-first +second):\n%s", diff)
	}
}

// TestReadV3NestedOutputs checks that outputs holding nested values, which
// Terraform 0.11 typed only as "list" or "map", can be read.
func TestReadV3NestedOutputs(t *testing.T) {
	src := `{"version":3,"serial":1,"lineage":"l","modules":[{"path":["root"],"outputs":{
		"lm":{"type":"list","value":[{"a":"1"}]},
		"ml":{"type":"map","value":{"k":["x"]}}}}]}`
	s, err := statefile.Read([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*states.OutputValue{
		"lm": {Value: cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("1")})})},
		"ml": {Value: cty.ObjectVal(map[string]cty.Value{"k": cty.TupleVal([]cty.Value{cty.StringVal("x")})})},
	}
	if diff := cmp.Diff(want, s.Outputs, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
}
