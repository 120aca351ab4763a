package jsonplan

import (
	"encoding/json"
	"testing"

	"github.com/strata-dev/strata/internal/plans"
)

// moduleAddrs projects a module of a document onto its address, the
// addresses of its resources and its child modules.
func moduleAddrs(t *testing.T, doc []byte) []byte {
	t.Helper()
	var project func(m map[string]any) map[string]any
	project = func(m map[string]any) map[string]any {
		ret := map[string]any{}
		if a, ok := m["address"]; ok {
			ret["address"] = a
		}
		for _, r := range asList(m["resources"]) {
			ret["resources"] = append(asList(ret["resources"]), r.(map[string]any)["address"])
		}
		for _, c := range asList(m["child_modules"]) {
			ret["child_modules"] = append(asList(ret["child_modules"]), project(c.(map[string]any)))
		}
		return ret
	}
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(project(m))
	return b
}

// changeAddrs projects resource changes onto their address and
// module_address.
func changeAddrs(t *testing.T, doc []byte) []byte {
	t.Helper()
	var rcs []map[string]any
	if err := json.Unmarshal(doc, &rcs); err != nil {
		t.Fatal(err)
	}
	var ret [][2]any
	for _, rc := range rcs {
		ret = append(ret, [2]any{rc["address"], rc["module_address"]})
	}
	b, _ := json.Marshal(ret)
	return b
}

// withoutModule projects a module call onto its own arguments.
func withoutModule(t *testing.T, doc []byte) []byte {
	t.Helper()
	var call map[string]any
	if err := json.Unmarshal(doc, &call); err != nil {
		t.Fatal(err)
	}
	delete(call, "module")
	b, _ := json.Marshal(call)
	return b
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestPlanModules(t *testing.T) {
	cfg := loadTree(t, moduleTreeFiles)
	got, err := Plan(moduleTreePlan(plans.NormalMode), cfg, schemas, PlanOptions{TerraformVersion: "1.11.4"})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		path []any
		// project, when set, reduces the part of the document compared.
		project func(*testing.T, []byte) []byte
		want    string
	}{
		// A passed-in configuration and the inherited default one are not
		// entries of their own.
		"provider_config": {[]any{"configuration", "provider_config"}, nil, `{
		  "test": {"name": "test", "full_name": "registry.terraform.io/hashicorp/test"},
		  "test.west": {"name": "test", "full_name": "registry.terraform.io/hashicorp/test", "alias": "west"},
		  "terraform": {"name": "terraform", "full_name": "terraform.io/builtin/terraform"}
		}`},
		"call with count, passed provider, nested call": {[]any{"configuration", "root_module", "module_calls", "counted"}, nil, `{
		  "source": "./modules/leaf",
		  "expressions": {"value": {"constant_value": "c"}},
		  "count_expression": {"constant_value": 2},
		  "module": {
		    "outputs": {
		      "result": {"expression": {"references": ["terraform_data.r.output", "terraform_data.r"]}},
		      "nested": {"expression": {"references": ["module.nested.full", "module.nested"]}}
		    },
		    "resources": [
		      {"address": "terraform_data.r", "mode": "managed", "type": "terraform_data", "name": "r", "provider_config_key": "terraform",
		       "expressions": {"input": {"references": ["var.value"]}}, "schema_version": 0},
		      {"address": "test_thing.t", "mode": "managed", "type": "test_thing", "name": "t", "provider_config_key": "test.west",
		       "expressions": {"name": {"references": ["terraform_data.r.output", "terraform_data.r"]}}, "schema_version": 0}
		    ],
		    "module_calls": {
		      "nested": {
		        "source": "../names",
		        "expressions": {"base": {"references": ["var.value"]}},
		        "module": {
		          "outputs": {"full": {"expression": {"references": ["local.full"]}}},
		          "resources": [
		            {"address": "terraform_data.n", "mode": "managed", "type": "terraform_data", "name": "n", "provider_config_key": "terraform",
		             "expressions": {"input": {"references": ["local.full"]}}, "schema_version": 0}
		          ],
		          "variables": {"base": {}}
		        }
		      }
		    },
		    "variables": {"value": {}}
		  }
		}`},
		"call with for_each and depends_on": {[]any{"configuration", "root_module", "module_calls", "each"}, withoutModule, `{
		  "source": "./modules/leaf",
		  "expressions": {"value": {"references": ["module.names.full", "module.names"]}},
		  "for_each_expression": {"constant_value": {"a": 1, "b": 2}},
		  "depends_on": ["terraform_data.root"]
		}`},
		"default provider in a called module": {[]any{"configuration", "root_module", "module_calls", "each", "module", "resources", 1, "provider_config_key"}, nil, `"test"`},
		"registry module": {[]any{"configuration", "root_module", "module_calls", "reg"}, nil, `{
		  "source": "example.com/acme/thing/test", "version_constraint": "~> 1.2,  < 2",
		  "module": {"outputs": {"o": {"expression": {"constant_value": 1}}}}
		}`},
		"output of a keyed module instance": {[]any{"configuration", "root_module", "outputs", "keyed"}, nil, `{
		  "expression": {"references": ["module.each[\"a\"].result", "module.each[\"a\"]"]}
		}`},
		// Shallower modules first, then call by call, by name and key.
		"resource_changes": {[]any{"resource_changes"}, changeAddrs, `[
		  ["terraform_data.root", null],
		  ["module.counted[0].terraform_data.r", "module.counted[0]"],
		  ["module.counted[1].terraform_data.r", "module.counted[1]"],
		  ["module.counted[1].test_thing.t", "module.counted[1]"],
		  ["module.each[\"a\"].terraform_data.r", "module.each[\"a\"]"],
		  ["module.each[\"b\"].terraform_data.r", "module.each[\"b\"]"],
		  ["module.each[\"gone\"].terraform_data.r", "module.each[\"gone\"]"],
		  ["module.each[\"a\"].module.nested.terraform_data.n", "module.each[\"a\"].module.nested"]
		]`},
		// A module inside a module instance is a child of that instance.
		"planned_values": {[]any{"planned_values", "root_module"}, moduleAddrs, `{
		  "resources": ["terraform_data.root"],
		  "child_modules": [
		    {"address": "module.counted[0]", "resources": ["module.counted[0].terraform_data.r"]},
		    {"address": "module.counted[1]", "resources": ["module.counted[1].terraform_data.r", "module.counted[1].test_thing.t"]},
		    {"address": "module.each[\"a\"]", "resources": ["module.each[\"a\"].terraform_data.r"], "child_modules": [
		      {"address": "module.each[\"a\"].module.nested", "resources": ["module.each[\"a\"].module.nested.terraform_data.n"]}
		    ]},
		    {"address": "module.each[\"b\"]", "resources": ["module.each[\"b\"].terraform_data.r"]}
		  ]
		}`},
		"prior_state": {[]any{"prior_state", "values", "root_module"}, moduleAddrs, `{
		  "resources": ["terraform_data.root"],
		  "child_modules": [
		    {"address": "module.each[\"a\"]", "resources": ["module.each[\"a\"].terraform_data.r"], "child_modules": [
		      {"address": "module.each[\"a\"].module.nested", "resources": ["module.each[\"a\"].module.nested.terraform_data.n"]}
		    ]},
		    {"address": "module.each[\"gone\"]", "resources": ["module.each[\"gone\"].terraform_data.r"]}
		  ]
		}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			doc := field(t, got, tc.path...)
			if tc.project != nil {
				doc = tc.project(t, doc)
			}
			assertJSON(t, doc, tc.want)
		})
	}
}
