package jsonplan

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/plans/planstest"
	"github.com/strata-dev/strata/internal/states"
)

// The fixtures, shared with the engine's relevant-attribute tests.
var (
	builtin, testProv                     = planstest.Builtin, planstest.TestProv
	dataSchema, thingSchema, lookupSchema = planstest.DataSchema, planstest.ThingSchema, planstest.LookupSchema
	schemas, inst, managed                = planstest.Schemas, planstest.Inst, planstest.Managed
	assertJSON, loadTree                  = planstest.AssertJSON, planstest.LoadTree
	moduleTreeFiles, moduleTreePlan       = planstest.ModuleTreeFiles, planstest.ModuleTreePlan
)

// field extracts a part of a document by object keys and array indexes.
func field(t *testing.T, doc []byte, path ...any) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	for _, p := range path {
		switch p := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("no %q in %v", p, v)
			}
			v = m[p]
		case int:
			l, ok := v.([]any)
			if !ok || p >= len(l) {
				t.Fatalf("no [%d] in %v", p, v)
			}
			v = l[p]
		}
	}
	b, _ := json.Marshal(v)
	return b
}

func TestStateEmpty(t *testing.T) {
	for _, s := range []*states.State{nil, states.New()} {
		got, err := State(s, schemas, "1.11.4")
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != `{"format_version":"1.0"}` {
			t.Errorf("empty state: %s", got)
		}
	}
}

func TestState(t *testing.T) {
	s := states.New()
	s.SetObject(managed("counted", addrs.IntKey(10)), &states.ObjectSrc{
		AttrsJSON: []byte(`{"id":"c10","input":{"value":"x","type":"string"},"output":{"value":"x","type":"string"},"triggers_replace":null}`),
		Status:    states.ObjectReady,
	}, builtin)
	s.SetObject(managed("counted", addrs.IntKey(2)), &states.ObjectSrc{
		AttrsJSON:      []byte(`{"id":"c2","input":{"value":{"user":"u","pw":"p","list":["a","b"]},"type":["object",{"user":"string","pw":"string","list":["list","string"]}]},"output":null,"triggers_replace":null}`),
		SensitivePaths: []cty.Path{cty.GetAttrPath("input").GetAttr("pw"), cty.GetAttrPath("input").GetAttr("list").IndexInt(1)},
		Status:         states.ObjectTainted,
		Dependencies:   []addrs.AbsResource{managed("a", addrs.NoKey).ContainingResource()},
	}, builtin)
	s.SetDeposed(managed("counted", addrs.IntKey(2)), "0000000b", &states.ObjectSrc{
		AttrsJSON: []byte(`{"id":"old-b","input":null,"output":null,"triggers_replace":null}`), Status: states.ObjectReady,
	}, builtin)
	s.SetDeposed(managed("counted", addrs.IntKey(2)), "0000000a", &states.ObjectSrc{
		AttrsJSON: []byte(`{"id":"old-a","input":null,"output":null,"triggers_replace":null}`), Status: states.ObjectReady,
	}, builtin)
	s.SetObject(inst(addrs.ManagedResourceMode, "test_thing", "t", addrs.StringKey("k")), &states.ObjectSrc{
		SchemaVersion: 3,
		AttrsJSON:     []byte(`{"id":"t","name":"n","token":"secret","rule":[{"port":1,"key":"k1"},{"port":2,"key":null}],"timeouts":null,"tag":{"a":{"value":"v"}}}`),
		Status:        states.ObjectReady,
	}, testProv)
	s.SetObject(inst(addrs.DataResourceMode, "test_lookup", "l", addrs.NoKey), &states.ObjectSrc{
		AttrsJSON: []byte(`{"key":"k","config":{"a":"b"},"result":"r"}`), Status: states.ObjectReady,
	}, testProv)
	child := addrs.ModuleInstance{{Name: "child", Key: addrs.StringKey("x")}}
	s.SetObject(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "in_module"}.Absolute(child).Instance(addrs.NoKey), &states.ObjectSrc{
		AttrsJSON: []byte(`{"id":"m","input":null,"output":null,"triggers_replace":null}`), Status: states.ObjectReady,
	}, addrs.AbsProviderConfig{Module: addrs.Module{"child"}, Provider: addrs.NewBuiltInProvider("terraform")})
	s.Outputs["list"] = &states.OutputValue{Value: cty.TupleVal([]cty.Value{cty.StringVal("<a&b>"), cty.NumberIntVal(1)})}
	s.Outputs["secret"] = &states.OutputValue{Value: cty.StringVal("pw").Mark(marks.Sensitive), Sensitive: true}

	got, err := State(s, schemas, "1.11.4")
	if err != nil {
		t.Fatal(err)
	}
	// Like Terraform's encoder, strata escapes <, > and & in strings.
	if !bytes.Contains(got, []byte(`"\u003ca\u0026b\u003e"`)) {
		t.Errorf("HTML characters not escaped as Terraform does: %s", got)
	}
	assertJSON(t, got, `{
	  "format_version": "1.0",
	  "terraform_version": "1.11.4",
	  "values": {
	    "outputs": {
	      "list": {"sensitive": false, "value": ["<a&b>", 1], "type": ["tuple", ["string", "number"]]},
	      "secret": {"sensitive": true, "value": "pw", "type": "string"}
	    },
	    "root_module": {
	      "resources": [
	        {"address": "data.test_lookup.l", "mode": "data", "type": "test_lookup", "name": "l",
	         "provider_name": "registry.terraform.io/hashicorp/test", "schema_version": 0,
	         "values": {"key": "k", "config": {"a": "b"}, "result": "r"}, "sensitive_values": {"config": {}}},
	        {"address": "terraform_data.counted[2]", "mode": "managed", "type": "terraform_data", "name": "counted", "index": 2,
	         "provider_name": "terraform.io/builtin/terraform", "schema_version": 0,
	         "values": {"id": "c2", "input": {"user": "u", "pw": "p", "list": ["a", "b"]}, "output": null, "triggers_replace": null},
	         "sensitive_values": {"input": {"pw": true, "list": [false, true]}},
	         "depends_on": ["terraform_data.a"], "tainted": true},
	        {"address": "terraform_data.counted[2]", "mode": "managed", "type": "terraform_data", "name": "counted", "index": 2,
	         "provider_name": "terraform.io/builtin/terraform", "schema_version": 0,
	         "values": {"id": "old-a", "input": null, "output": null, "triggers_replace": null},
	         "sensitive_values": {}, "deposed_key": "0000000a"},
	        {"address": "terraform_data.counted[2]", "mode": "managed", "type": "terraform_data", "name": "counted", "index": 2,
	         "provider_name": "terraform.io/builtin/terraform", "schema_version": 0,
	         "values": {"id": "old-b", "input": null, "output": null, "triggers_replace": null},
	         "sensitive_values": {}, "deposed_key": "0000000b"},
	        {"address": "terraform_data.counted[10]", "mode": "managed", "type": "terraform_data", "name": "counted", "index": 10,
	         "provider_name": "terraform.io/builtin/terraform", "schema_version": 0,
	         "values": {"id": "c10", "input": "x", "output": "x", "triggers_replace": null}, "sensitive_values": {}},
	        {"address": "test_thing.t[\"k\"]", "mode": "managed", "type": "test_thing", "name": "t", "index": "k",
	         "provider_name": "registry.terraform.io/hashicorp/test", "schema_version": 3,
	         "values": {"id": "t", "name": "n", "token": "secret", "rule": [{"port": 1, "key": "k1"}, {"port": 2, "key": null}], "timeouts": null, "tag": {"a": {"value": "v"}}},
	         "sensitive_values": {"token": true, "rule": [{"key": true}, {"key": true}], "tag": {"a": {}}}}
	      ],
	      "child_modules": [
	        {"address": "module.child[\"x\"]", "resources": [
	          {"address": "module.child[\"x\"].terraform_data.in_module", "mode": "managed", "type": "terraform_data", "name": "in_module",
	           "provider_name": "terraform.io/builtin/terraform", "schema_version": 0,
	           "values": {"id": "m", "input": null, "output": null, "triggers_replace": null}, "sensitive_values": {}}
	        ]}
	      ]
	    }
	  }
	}`)

	// Without a schema the object cannot be decoded.
	s.SetObject(inst(addrs.ManagedResourceMode, "other_thing", "x", addrs.NoKey), &states.ObjectSrc{AttrsJSON: []byte(`{}`)}, testProv)
	if _, err := State(s, schemas, "1.11.4"); err == nil {
		t.Error("a state with an object of an unknown type rendered without error")
	}
}

func TestTrees(t *testing.T) {
	unknownStr := cty.UnknownVal(cty.String)
	v := cty.ObjectVal(map[string]cty.Value{
		"known":   cty.StringVal("k"),
		"unknown": unknownStr,
		"null":    cty.NullVal(cty.String),
		"list":    cty.ListVal([]cty.Value{cty.StringVal("a"), unknownStr}),
		"set":     cty.SetVal([]cty.Value{cty.StringVal("a")}),
		"empty":   cty.ListValEmpty(cty.String),
		"map":     cty.MapVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": unknownStr}),
		"obj":     cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("p").Mark(marks.Sensitive)}),
		"ulist":   cty.UnknownVal(cty.List(cty.String)),
		"uobj":    cty.UnknownVal(cty.Object(map[string]cty.Type{"a": cty.String})),
		"udyn":    cty.DynamicVal,
		"slist":   cty.ListVal([]cty.Value{cty.StringVal("a")}).Mark(marks.Sensitive),
	})
	for name, tc := range map[string]struct {
		got  any
		want string
	}{
		"unknown":   {unknownTree(v), `{"unknown":true,"list":[false,true],"set":[false],"empty":[],"map":{"b":true},"obj":{},"ulist":true,"uobj":true,"udyn":true,"slist":[false]}`},
		"sensitive": {sensitiveTree(v), `{"list":[false,false],"set":[false],"empty":[],"map":{},"obj":{"s":true},"ulist":[],"uobj":{},"slist":true}`},
	} {
		b, _ := json.Marshal(tc.got)
		t.Run(name, func(t *testing.T) { assertJSON(t, b, tc.want) })
	}
	known, err := marshalKnownPart(v)
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, known, `{"known":"k","null":null,"list":["a",null],"set":["a"],"empty":[],"map":{"a":"x"},"obj":{"s":"p"},"slist":["a"]}`)
	if k, _ := marshalKnownPart(unknownStr); k != nil {
		t.Errorf("an unknown value has no known part, got %s", k)
	}
}

// testConfigFile is the configuration of the plan in TestPlan; the
// engine's relevant attributes test analyses it too.
const testConfigFile = "testdata/plan.tf"

func readTestConfig(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(testConfigFile)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func loadConfig(t *testing.T, src string) *configs.Module {
	t.Helper()
	mod, diags := configs.NewParser().LoadModuleFromSources(".", map[string][]byte{"main.tf": []byte(src)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return mod
}

func TestPlan(t *testing.T) {
	cfg := configs.NewRootConfig(loadConfig(t, readTestConfig(t)))
	prior := states.New()
	prior.SetObject(managed("a", addrs.IntKey(0)), &states.ObjectSrc{
		AttrsJSON: []byte(`{"id":"a0","input":{"value":"east-0","type":"string"},"output":{"value":"east-0","type":"string"},"triggers_replace":null}`),
		Status:    states.ObjectReady,
	}, builtin)
	prior.SetObject(managed("gone", addrs.NoKey), &states.ObjectSrc{
		AttrsJSON: []byte(`{"id":"g","input":null,"output":null,"triggers_replace":null}`), Status: states.ObjectReady,
	}, builtin)
	prior.SetDeposed(managed("a", addrs.IntKey(0)), "00000001", &states.ObjectSrc{
		AttrsJSON: []byte(`{"id":"old","input":null,"output":null,"triggers_replace":null}`), Status: states.ObjectReady,
	}, builtin)
	prior.Outputs["a"] = &states.OutputValue{Value: cty.TupleVal([]cty.Value{cty.StringVal("east-0")})}
	prior.Outputs["old"] = &states.OutputValue{Value: cty.StringVal("o")}
	prior.Outputs["fn"] = &states.OutputValue{Value: cty.StringVal("y")}

	dataObj := func(id, input, output cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "input": input, "output": output, "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
	}
	nullDyn := cty.NullVal(cty.DynamicPseudoType)
	p := &plans.Plan{
		Mode:         plans.NormalMode,
		PriorState:   prior,
		PrevRunState: prior,
		VariableValues: map[string]cty.Value{
			"region":   cty.StringVal("west"),
			"required": cty.NumberIntVal(5),
			"secret":   cty.StringVal("s").Mark(marks.Sensitive),
			"nothing":  cty.NullVal(cty.DynamicPseudoType),
		},
		Changes: &plans.Changes{
			Resources: []*plans.ResourceInstanceChange{
				{
					Addr: managed("gone", addrs.NoKey), ProviderAddr: builtin, Action: plans.Delete, Reason: plans.ReasonDeleteBecauseNoResourceConfig,
					Before: dataObj(cty.StringVal("g"), nullDyn, nullDyn), After: cty.NullVal(dataSchema.ImpliedType()),
				},
				{
					Addr: managed("a", addrs.IntKey(1)), ProviderAddr: builtin, Action: plans.Create,
					Before: cty.NullVal(dataSchema.ImpliedType()), After: dataObj(cty.UnknownVal(cty.String), cty.StringVal("west-1"), cty.UnknownVal(cty.String)),
				},
				{
					Addr: managed("a", addrs.IntKey(0)), ProviderAddr: builtin, Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseCannotUpdate,
					Before:          dataObj(cty.StringVal("a0"), cty.StringVal("east-0"), cty.StringVal("east-0")),
					After:           dataObj(cty.UnknownVal(cty.String), cty.StringVal("west-0"), cty.UnknownVal(cty.String)),
					RequiredReplace: []cty.Path{cty.GetAttrPath("input"), cty.GetAttrPath("triggers_replace").IndexInt(0).IndexString("k")},
				},
				{
					Addr: managed("a", addrs.IntKey(0)), DeposedKey: "00000001", ProviderAddr: builtin, Action: plans.Delete,
					Before: dataObj(cty.StringVal("old"), nullDyn, nullDyn), After: cty.NullVal(dataSchema.ImpliedType()),
				},
				{
					Addr: managed("b", addrs.StringKey("x")), ProviderAddr: builtin, Action: plans.Create,
					Before: cty.NullVal(dataSchema.ImpliedType()),
					After: dataObj(cty.UnknownVal(cty.String),
						cty.TupleVal([]cty.Value{cty.UnknownVal(cty.String), cty.UnknownVal(cty.String), cty.StringVal("s").Mark(marks.Sensitive), cty.StringVal("x")}),
						cty.UnknownVal(cty.Tuple([]cty.Type{cty.String, cty.String, cty.String, cty.String}))),
				},
				{
					Addr: inst(addrs.ManagedResourceMode, "test_thing", "t", addrs.NoKey), ProviderAddr: addrs.AbsProviderConfig{Provider: testProv.Provider, Alias: "west"},
					Action: plans.Update, SchemaVersion: 2,
					Before: cty.ObjectVal(map[string]cty.Value{
						"id": cty.StringVal("t"), "name": cty.StringVal("old"), "token": cty.StringVal("s"),
						"rule":     cty.ListValEmpty(thingSchema.BlockTypes["rule"].ImpliedType().ElementType()),
						"timeouts": cty.NullVal(thingSchema.BlockTypes["timeouts"].ImpliedType()),
						"tag":      cty.MapValEmpty(thingSchema.BlockTypes["tag"].ImpliedType().ElementType()),
					}),
					After: cty.ObjectVal(map[string]cty.Value{
						"id": cty.StringVal("t"), "name": cty.StringVal("n"), "token": cty.StringVal("s"),
						"rule": cty.ListVal([]cty.Value{
							cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(1), "key": cty.NullVal(cty.String)}),
							cty.ObjectVal(map[string]cty.Value{"port": cty.UnknownVal(cty.Number), "key": cty.NullVal(cty.String)}),
						}),
						"timeouts": cty.ObjectVal(map[string]cty.Value{"create": cty.StringVal("1m")}),
						"tag":      cty.MapVal(map[string]cty.Value{"a": cty.ObjectVal(map[string]cty.Value{"value": cty.StringVal("v")})}),
					}),
				},
				{
					Addr: inst(addrs.DataResourceMode, "test_lookup", "l", addrs.NoKey), ProviderAddr: testProv, Action: plans.Read,
					Before: cty.NullVal(lookupSchema.ImpliedType()),
					After: cty.ObjectVal(map[string]cty.Value{
						"key": cty.UnknownVal(cty.String), "config": cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)}), "result": cty.UnknownVal(cty.String),
					}),
				},
			},
			Outputs: []*plans.OutputChange{
				{Name: "a", Action: plans.Update, Before: cty.TupleVal([]cty.Value{cty.StringVal("east-0")}), After: cty.TupleVal([]cty.Value{cty.UnknownVal(cty.String), cty.UnknownVal(cty.String)})},
				{Name: "secret", Action: plans.Create, Before: cty.NullVal(cty.DynamicPseudoType), After: cty.StringVal("s").Mark(marks.Sensitive), Sensitive: true},
				{Name: "old", Action: plans.Delete, Before: cty.StringVal("o"), After: cty.NullVal(cty.String)},
				{Name: "fn", Action: plans.Update, Before: cty.StringVal("y"), After: cty.StringVal("X")},
			},
		},
	}
	stamp := time.Date(2025, 3, 4, 5, 6, 7, 8, time.FixedZone("x", 3600))
	// The engine records the relevant attributes (its tests check which);
	// the document lists them.
	p.RelevantAttributes = []plans.RelevantAttr{
		{Resource: "terraform_data.a", Attr: cty.Path{}},
		{Resource: "terraform_data.a", Attr: cty.GetAttrPath("output")},
		{Resource: "terraform_data.a[0]", Attr: cty.GetAttrPath("id")},
		{Resource: "terraform_data.a[0]", Attr: cty.GetAttrPath("output")},
		{Resource: "terraform_data.a[1]", Attr: cty.GetAttrPath("id").Index(cty.StringVal("k")).Index(cty.NumberIntVal(2))},
	}
	got, err := Plan(p, cfg, schemas, PlanOptions{TerraformVersion: "1.11.4", Timestamp: stamp})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("header", func(t *testing.T) {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(got, &top); err != nil {
			t.Fatal(err)
		}
		for k, want := range map[string]string{
			"format_version": `"1.2"`, "terraform_version": `"1.11.4"`, "timestamp": `"2025-03-04T04:06:07Z"`,
			"applyable": "true", "complete": "true", "errored": "false",
		} {
			if string(top[k]) != want {
				t.Errorf("%s = %s, want %s", k, top[k], want)
			}
		}
		if _, ok := top["resource_drift"]; ok {
			t.Error("resource_drift present without drift")
		}
		assertJSON(t, top["variables"], `{"region":{"value":"west"},"required":{"value":5},"secret":{"value":"s"},"nothing":{"value":null}}`)
	})

	t.Run("resource_changes", func(t *testing.T) {
		assertJSON(t, field(t, got, "resource_changes"), `[
		  {"address": "data.test_lookup.l", "mode": "data", "type": "test_lookup", "name": "l", "provider_name": "registry.terraform.io/hashicorp/test",
		   "change": {"actions": ["read"], "before": null, "after": {"config": {}}, "after_unknown": {"key": true, "config": {"a": true}, "result": true},
		              "before_sensitive": false, "after_sensitive": {"config": {}}},
		   "action_reason": "read_because_config_unknown"},
		  {"address": "terraform_data.a[0]", "mode": "managed", "type": "terraform_data", "name": "a", "index": 0, "provider_name": "terraform.io/builtin/terraform",
		   "change": {"actions": ["delete", "create"],
		              "before": {"id": "a0", "input": "east-0", "output": "east-0", "triggers_replace": null},
		              "after": {"input": "west-0", "triggers_replace": null},
		              "after_unknown": {"id": true, "output": true}, "before_sensitive": {}, "after_sensitive": {},
		              "replace_paths": [["input"], ["triggers_replace", 0, "k"]]},
		   "action_reason": "replace_because_cannot_update"},
		  {"address": "terraform_data.a[0]", "mode": "managed", "type": "terraform_data", "name": "a", "index": 0, "provider_name": "terraform.io/builtin/terraform",
		   "deposed": "00000001",
		   "change": {"actions": ["delete"], "before": {"id": "old", "input": null, "output": null, "triggers_replace": null}, "after": null,
		              "after_unknown": {}, "before_sensitive": {}, "after_sensitive": false}},
		  {"address": "terraform_data.a[1]", "mode": "managed", "type": "terraform_data", "name": "a", "index": 1, "provider_name": "terraform.io/builtin/terraform",
		   "change": {"actions": ["create"], "before": null, "after": {"input": "west-1", "triggers_replace": null},
		              "after_unknown": {"id": true, "output": true}, "before_sensitive": false, "after_sensitive": {}}},
		  {"address": "terraform_data.b[\"x\"]", "mode": "managed", "type": "terraform_data", "name": "b", "index": "x", "provider_name": "terraform.io/builtin/terraform",
		   "change": {"actions": ["create"], "before": null, "after": {"input": [null, null, "s", "x"], "triggers_replace": null},
		              "after_unknown": {"id": true, "input": [true, true, false, false], "output": true},
		              "before_sensitive": false, "after_sensitive": {"input": [false, false, true, false], "output": []}}},
		  {"address": "terraform_data.gone", "mode": "managed", "type": "terraform_data", "name": "gone", "provider_name": "terraform.io/builtin/terraform",
		   "change": {"actions": ["delete"], "before": {"id": "g", "input": null, "output": null, "triggers_replace": null}, "after": null,
		              "after_unknown": {}, "before_sensitive": {}, "after_sensitive": false},
		   "action_reason": "delete_because_no_resource_config"},
		  {"address": "test_thing.t", "mode": "managed", "type": "test_thing", "name": "t", "provider_name": "registry.terraform.io/hashicorp/test",
		   "change": {"actions": ["update"],
		              "before": {"id": "t", "name": "old", "token": "s", "rule": [], "timeouts": null, "tag": {}},
		              "after": {"id": "t", "name": "n", "token": "s", "rule": [{"port": 1, "key": null}, {"key": null}], "timeouts": {"create": "1m"}, "tag": {"a": {"value": "v"}}},
		              "after_unknown": {"rule": [{}, {"port": true}], "timeouts": {}, "tag": {"a": {}}},
		              "before_sensitive": {"token": true, "rule": [], "tag": {}},
		              "after_sensitive": {"token": true, "rule": [{"key": true}, {"key": true}], "timeouts": {}, "tag": {"a": {}}}}}
		]`)
	})

	t.Run("output_changes", func(t *testing.T) {
		assertJSON(t, field(t, got, "output_changes"), `{
		  "a": {"actions": ["update"], "before": ["east-0"], "after": [null, null], "after_unknown": [true, true], "before_sensitive": false, "after_sensitive": false},
		  "secret": {"actions": ["create"], "before": null, "after": "s", "after_unknown": false, "before_sensitive": true, "after_sensitive": true},
		  "old": {"actions": ["delete"], "before": "o", "after": null, "after_unknown": false, "before_sensitive": false, "after_sensitive": false},
		  "fn": {"actions": ["update"], "before": "y", "after": "X", "after_unknown": false, "before_sensitive": false, "after_sensitive": false}
		}`)
	})

	t.Run("planned_values", func(t *testing.T) {
		pv := field(t, got, "planned_values")
		assertJSON(t, field(t, pv, "outputs"), `{
		  "a": {"sensitive": false},
		  "secret": {"sensitive": true, "type": "string", "value": "s"},
		  "fn": {"sensitive": false, "type": "string", "value": "X"}
		}`)
		var addrs []string
		var rs []map[string]any
		_ = json.Unmarshal(field(t, pv, "root_module", "resources"), &rs)
		for _, r := range rs {
			addrs = append(addrs, r["address"].(string))
		}
		want := []string{"data.test_lookup.l", "terraform_data.a[0]", "terraform_data.a[1]", `terraform_data.b["x"]`, "test_thing.t"}
		if d := cmp.Diff(want, addrs); d != "" {
			t.Errorf("planned resources (-want +got):\n%s", d)
		}
		assertJSON(t, field(t, pv, "root_module", "resources", 4), `{"address": "test_thing.t", "mode": "managed", "type": "test_thing", "name": "t",
		  "provider_name": "registry.terraform.io/hashicorp/test", "schema_version": 2,
		  "values": {"id": "t", "name": "n", "token": "s", "rule": [{"port": 1, "key": null}, {"key": null}], "timeouts": {"create": "1m"}, "tag": {"a": {"value": "v"}}},
		  "sensitive_values": {"token": true, "rule": [{"key": true}, {"key": true}], "timeouts": {}, "tag": {"a": {}}}}`)
	})

	t.Run("prior_state", func(t *testing.T) {
		ps := field(t, got, "prior_state")
		if string(field(t, ps, "format_version")) != `"1.0"` || string(field(t, ps, "terraform_version")) != `"1.11.4"` {
			t.Errorf("prior_state header: %s", ps)
		}
		// Known planned output values replace the prior ones; unknown and
		// deleted ones stay as they were.
		assertJSON(t, field(t, ps, "values", "outputs"), `{
		  "a": {"sensitive": false, "value": ["east-0"], "type": ["tuple", ["string"]]},
		  "old": {"sensitive": false, "value": "o", "type": "string"},
		  "fn": {"sensitive": false, "value": "X", "type": "string"},
		  "secret": {"sensitive": true, "value": "s", "type": "string"}
		}`)
		if n := len(field(t, ps, "values", "root_module", "resources")); n == 0 {
			t.Error("prior_state has no resources")
		}
	})

	t.Run("configuration", func(t *testing.T) {
		c := field(t, got, "configuration")
		assertJSON(t, field(t, c, "provider_config"), `{
		  "test": {"name": "test", "full_name": "registry.terraform.io/hashicorp/test", "version_constraint": ">= 1.2.0, != 1.3.1",
		           "expressions": {"region": {"constant_value": "eu"}}},
		  "test.west": {"name": "test", "full_name": "registry.terraform.io/hashicorp/test", "alias": "west", "version_constraint": ">= 1.2.0, != 1.3.1",
		                "expressions": {"region": {"references": ["var.region"]}}},
		  "other": {"name": "other", "full_name": "example.com/acme/other", "version_constraint": "~> 2.0"},
		  "terraform": {"name": "terraform", "full_name": "terraform.io/builtin/terraform"}
		}`)
		assertJSON(t, field(t, c, "root_module", "variables"), `{
		  "region": {"default": "west", "description": "Where."},
		  "required": {},
		  "secret": {"default": "s", "sensitive": true},
		  "nothing": {"default": null}
		}`)
		assertJSON(t, field(t, c, "root_module", "outputs"), `{
		  "a": {"expression": {"references": ["terraform_data.a"]}},
		  "secret": {"sensitive": true, "expression": {"references": ["var.secret"]}, "depends_on": ["terraform_data.b"], "description": "Shh."},
		  "fn": {"expression": {}}
		}`)
		assertJSON(t, field(t, c, "root_module", "resources"), `[
		  {"address": "terraform_data.a", "mode": "managed", "type": "terraform_data", "name": "a", "provider_config_key": "terraform",
		   "expressions": {"input": {"references": ["var.region", "count.index"]}}, "schema_version": 0,
		   "count_expression": {"constant_value": 2}},
		  {"address": "terraform_data.b", "mode": "managed", "type": "terraform_data", "name": "b", "provider_config_key": "terraform",
		   "expressions": {
		     "input": {"references": ["terraform_data.a[0].output", "terraform_data.a[0]", "terraform_data.a", "local.m[\"k\"]", "local.m", "var.secret", "each.key"]},
		     "triggers_replace": {"references": ["terraform_data.a"]}},
		   "schema_version": 0, "depends_on": ["terraform_data.a"]},
		  {"address": "terraform_data.constants", "mode": "managed", "type": "terraform_data", "name": "constants", "provider_config_key": "terraform",
		   "expressions": {"input": {"constant_value": {"n": 1, "s": "two", "l": [true, null]}}, "triggers_replace": {"constant_value": null}},
		   "schema_version": 0},
		  {"address": "test_thing.t", "mode": "managed", "type": "test_thing", "name": "t", "provider_config_key": "test.west",
		   "expressions": {
		     "name": {"constant_value": "n"}, "token": {"references": ["var.secret"]},
		     "rule": [{"port": {"constant_value": 1}}, {"port": {"references": ["terraform_data.a[1].id", "terraform_data.a[1]", "terraform_data.a"]}}],
		     "timeouts": {"create": {"constant_value": "1m"}},
		     "tag": {"a": {"value": {"constant_value": "v"}}}},
		   "schema_version": 2},
		  {"address": "data.test_lookup.l", "mode": "data", "type": "test_lookup", "name": "l", "provider_config_key": "test",
		   "expressions": {"key": {"references": ["terraform_data.a[0].id", "terraform_data.a[0]", "terraform_data.a"]}},
		   "schema_version": 0}
		]`)
	})

	t.Run("relevant_attributes", func(t *testing.T) {
		// The plan's, with names and keys as JSON values.
		assertJSON(t, field(t, got, "relevant_attributes"), `[
		  {"resource": "terraform_data.a", "attribute": []},
		  {"resource": "terraform_data.a", "attribute": ["output"]},
		  {"resource": "terraform_data.a[0]", "attribute": ["id"]},
		  {"resource": "terraform_data.a[0]", "attribute": ["output"]},
		  {"resource": "terraform_data.a[1]", "attribute": ["id", "k", 2]}
		]`)
	})
}

func TestPlanDestroyAndDrift(t *testing.T) {
	prior := states.New()
	prior.Outputs["o"] = &states.OutputValue{Value: cty.StringVal("v")}
	p := &plans.Plan{
		Mode: plans.DestroyMode, PriorState: prior,
		Changes: &plans.Changes{Outputs: []*plans.OutputChange{{Name: "o", Action: plans.Delete, Before: cty.StringVal("v"), After: cty.NullVal(cty.String)}}},
		DriftedResources: []*plans.ResourceInstanceChange{{
			Addr: managed("d", addrs.NoKey), ProviderAddr: builtin, Action: plans.Delete,
			Before: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("d"), "input": cty.StringVal("s").Mark(marks.Sensitive), "output": cty.NullVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)}),
			After:  cty.NullVal(dataSchema.ImpliedType()),
		}},
	}
	got, err := Plan(p, nil, schemas, PlanOptions{TerraformVersion: "1.11.4"})
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, got, `{
	  "format_version": "1.2", "terraform_version": "1.11.4",
	  "planned_values": {"root_module": {}},
	  "resource_drift": [
	    {"address": "terraform_data.d", "mode": "managed", "type": "terraform_data", "name": "d", "provider_name": "terraform.io/builtin/terraform",
	     "change": {"actions": ["delete"], "before": {"id": "d", "input": "s", "output": null, "triggers_replace": null}, "after": null,
	                "after_unknown": {}, "before_sensitive": {"input": true}, "after_sensitive": false}}
	  ],
	  "output_changes": {"o": {"actions": ["delete"], "before": "v", "after": null, "after_unknown": false, "before_sensitive": false, "after_sensitive": false}},
	  "prior_state": {"format_version": "1.0", "terraform_version": "1.11.4", "values": {"outputs": {"o": {"sensitive": false, "value": "v", "type": "string"}}, "root_module": {}}},
	  "applyable": true, "complete": true, "errored": false
	}`)

	// A plan with nothing to do is not applyable.
	empty, err := Plan(&plans.Plan{Changes: &plans.Changes{}}, nil, schemas, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, empty, `{"format_version": "1.2", "planned_values": {"root_module": {}}, "applyable": false, "complete": true, "errored": false}`)
}

func TestExpressionReferences(t *testing.T) {
	cfg := loadConfig(t, `
locals {
  a = var.x.y[0]
  b = terraform_data.r["k"].output[2]
  c = data.d.e.f
  d = [for v in var.list : v.name]
  e = "lit${"eral"}"
  f = path.module
  g = terraform_data.r[*].id
  h = "${count.index}/${each.value}/${terraform.workspace}"
  i = var.m[var.k]
  j = 1.5
}
`)
	want := map[string]string{
		"a": `{"references": ["var.x.y[0]", "var.x.y", "var.x"]}`,
		"b": `{"references": ["terraform_data.r[\"k\"].output[2]", "terraform_data.r[\"k\"].output", "terraform_data.r[\"k\"]", "terraform_data.r"]}`,
		"c": `{"references": ["data.d.e.f", "data.d.e"]}`,
		"d": `{"references": ["var.list"]}`,
		"e": `{"constant_value": "literal"}`,
		"f": `{"references": ["path.module"]}`,
		"g": `{"references": ["terraform_data.r"]}`,
		"h": `{"references": ["count.index", "each.value", "terraform.workspace"]}`,
		"i": `{"references": ["var.m", "var.k"]}`,
		"j": `{"constant_value": 1.5}`,
	}
	for name, w := range want {
		b, _ := json.Marshal(marshalExpression(cfg.Locals[name].Expr))
		t.Run(name, func(t *testing.T) { assertJSON(t, b, w) })
	}
}

func TestConstraintString(t *testing.T) {
	mod := loadConfig(t, `
terraform {
  required_providers {
    a = { source = "x/a", version = ">= 5.0, < 6" }
    b = { source = "x/b", version = "~> 5.0" }
    c = { source = "x/c", version = "5.100.0" }
    d = { source = "x/d", version = "= 5.100" }
    e = { source = "x/e", version = "!= 4.0, >5" }
    f = { source = "x/f", version = "~>5" }
    g = { source = "x/g", version = ">=5.0.0-beta1" }
    h = { source = "x/h", version = "~> 1.2.3" }
    i = { source = "x/i", version = "~>0.1,>=0.0.1, != 0.0.5" }
    j = { source = "x/j", version = "0.1.0, >= 0.1.0, = 0.1.0" }
  }
}
`)
	// What Terraform 1.11 prints for each.
	want := map[string]string{
		"a": ">= 5.0.0, < 6.0.0", "b": "~> 5.0", "c": "5.100.0", "d": "5.100.0",
		"e": "!= 4.0.0, > 5.0.0", "f": "~> 5.0", "g": ">= 5.0.0-beta1", "h": "~> 1.2.3",
		"i": ">= 0.0.1, != 0.0.5, ~> 0.1", "j": ">= 0.1.0, 0.1.0",
	}
	for name, w := range want {
		if got := constraintString(mod.RequiredProviders[name].Requirement.Required); got != w {
			t.Errorf("%s: %q, want %q", name, got, w)
		}
	}
}
