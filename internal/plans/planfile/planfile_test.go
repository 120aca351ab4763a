package planfile

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty-debug/ctydebug"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

func testPlan() *plans.Plan {
	inst := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "a"}.Instance(addrs.IntKey(1)).Absolute(addrs.RootModuleInstance)
	provider := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	prior := states.New()
	prior.Lineage, prior.Serial = "lineage-1", 7
	before := cty.ObjectVal(map[string]cty.Value{
		"id":    cty.StringVal("x"),
		"input": cty.StringVal("secret").Mark(marks.Sensitive),
	})
	after := cty.ObjectVal(map[string]cty.Value{
		"id":    cty.UnknownVal(cty.String),
		"input": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}),
	})
	return &plans.Plan{
		Mode:         plans.NormalMode,
		PrevRunState: prior.DeepCopy(),
		PriorState:   prior,
		SkipRefresh:  true,
		// As a refresh-only plan may record it.
		ObjectsReencoded: true,
		Targets:          []addrs.Target{{Resource: inst.ContainingResource(), Key: addrs.IntKey(1), Instance: true}},
		VariableValues: map[string]cty.Value{
			"n": cty.NumberIntVal(3),
			"s": cty.StringVal("hidden").Mark(marks.Sensitive),
		},
		Changes: &plans.Changes{
			Resources: []*plans.ResourceInstanceChange{{
				Addr: inst, ProviderAddr: provider, Action: plans.DeleteThenCreate,
				Reason: plans.ReasonReplaceBecauseCannotUpdate, Before: before, After: after,
				RequiredReplace: []cty.Path{cty.GetAttrPath("input")}, Private: []byte("p"), SchemaVersion: 2,
			}},
			Outputs: []*plans.OutputChange{{
				Name: "o", Action: plans.Create, Before: cty.NullVal(cty.DynamicPseudoType),
				After: cty.UnknownVal(cty.String), Sensitive: true,
			}},
		},
		Checks: []*plans.CheckResult{
			{Kind: plans.CheckKindResource, Module: addrs.Module{"m"}, Resource: inst.Resource.Resource, Status: plans.CheckFail, Instances: []*plans.CheckInstanceResult{
				{Module: addrs.RootModuleInstance.Child("m", addrs.StringKey("a b")), Key: addrs.IntKey(1), Status: plans.CheckFail, Problems: []string{"too big"}},
			}},
			{Kind: plans.CheckKindCheck, Name: "health", Status: plans.CheckUnknown, Instances: []*plans.CheckInstanceResult{
				{Module: addrs.RootModuleInstance, Key: addrs.NoKey, Status: plans.CheckUnknown},
			}},
		},
		RelevantAttributes: []plans.RelevantAttr{
			{Resource: "terraform_data.a", Attr: cty.Path{}},
			{Resource: `module.m["k"].terraform_data.b[1]`, Attr: cty.GetAttrPath("output").Index(cty.StringVal("k")).Index(cty.NumberIntVal(2))},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	want := &Contents{
		Plan:          testPlan(),
		Config:        map[string][]byte{"main.tf": []byte("resource \"terraform_data\" \"a\" {}\n")},
		LockFile:      []byte("# lock\n"),
		StrataVersion: "1.2.3",
	}
	data, err := Write(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(data, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	opts := cmp.Options{ctydebug.CmpOptions, cmp.Comparer(func(a, b addrs.AbsResourceInstance) bool { return a.String() == b.String() })}
	if diff := cmp.Diff(want.Plan.Changes, got.Plan.Changes, opts); diff != "" {
		t.Errorf("changes differ (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.Plan.VariableValues, got.Plan.VariableValues, opts); diff != "" {
		t.Errorf("variables differ (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.Plan.Checks, got.Plan.Checks); diff != "" {
		t.Errorf("checks differ (-want +got):\n%s", diff)
	}
	// An empty path may read back as nil: Path.Equals takes them as one.
	if diff := cmp.Diff(want.Plan.RelevantAttributes, got.Plan.RelevantAttributes, opts); diff != "" {
		t.Errorf("relevant attributes differ (-want +got):\n%s", diff)
	}
	if len(got.Plan.Targets) != 1 || got.Plan.Targets[0].String() != "terraform_data.a[1]" {
		t.Errorf("targets lost: %v", got.Plan.Targets)
	}
	if got.Plan.PriorState.Lineage != "lineage-1" || got.Plan.PriorState.Serial != 7 || !got.Plan.SkipRefresh || !got.Plan.ObjectsReencoded {
		t.Errorf("prior state or options lost: %+v", got.Plan)
	}
	if string(got.Config["main.tf"]) != string(want.Config["main.tf"]) || string(got.LockFile) != "# lock\n" {
		t.Error("configuration snapshot or lock file lost")
	}
}

// rezip rewrites an archive with one entry replaced, keeping the old
// manifest: a consistent zip whose content no longer matches its checksums.
func rezip(t *testing.T, data []byte, name string, content []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name == name {
			if content == nil {
				continue
			}
			b = content
		}
		w, _ := zw.Create(f.Name)
		w.Write(b)
	}
	zw.Close()
	return buf.Bytes()
}

func TestReadRefuses(t *testing.T) {
	data, err := Write(&Contents{Plan: testPlan(), Config: map[string][]byte{"main.tf": []byte("x")}, StrataVersion: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		data    []byte
		version string
		want    string
	}{
		"other version":     {data, "1.2.4", "can only be applied by the version that made it"},
		"altered config":    {rezip(t, data, "config/main.tf", []byte("y")), "1.2.3", "has been altered"},
		"altered plan":      {rezip(t, data, "plan.json", []byte("{}")), "1.2.3", "has been altered"},
		"missing entry":     {rezip(t, data, "prior.tfstate", nil), "1.2.3", "is incomplete"},
		"truncated":         {data[:len(data)-30], "1.2.3", "truncated or damaged"},
		"not a zip":         {[]byte("hello"), "1.2.3", "not a strata plan file"},
		"no manifest":       {rezip(t, data, "manifest.json", nil), "1.2.3", "no valid manifest"},
		"version unchecked": {data, "", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Read(tc.data, tc.version)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestRoundTripIdentity: the resource identities of a change (Terraform
// 1.12), including a partly unknown planned one and the identity an
// import block gave, survive the plan file; changes without identity
// keep none.
func TestRoundTripIdentity(t *testing.T) {
	plan := testPlan()
	inst := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "stratafw_keyed", Name: "k"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("eu/one")})
	identity := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("one"), "region": cty.StringVal("eu")})
	plan.Changes.Resources = append(plan.Changes.Resources, &plans.ResourceInstanceChange{
		Addr: inst, ProviderAddr: plan.Changes.Resources[0].ProviderAddr, Action: plans.Update,
		Before: obj, After: obj, BeforeIdentity: identity, IdentityVersion: 2,
		AfterIdentity: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("one"), "region": cty.UnknownVal(cty.String)}),
		Importing:     &plans.Importing{Identity: identity},
	})
	want := &Contents{Plan: plan, Config: map[string][]byte{}, StrataVersion: "1.2.3"}
	data, err := Write(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(data, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	opts := cmp.Options{ctydebug.CmpOptions, cmp.Comparer(func(a, b addrs.AbsResourceInstance) bool { return a.String() == b.String() })}
	if diff := cmp.Diff(want.Plan.Changes.Resources, got.Plan.Changes.Resources, opts); diff != "" {
		t.Errorf("changes differ (-want +got):\n%s", diff)
	}
	if first := got.Plan.Changes.Resources[0]; first.BeforeIdentity != cty.NilVal || first.AfterIdentity != cty.NilVal {
		t.Errorf("a change without identity came back with %#v, %#v", first.BeforeIdentity, first.AfterIdentity)
	}
}
