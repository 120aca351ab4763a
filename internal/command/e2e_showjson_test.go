package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
)

// The configurations under testdata/showjson/<case> have a step1
// directory, applied first (none: an empty state), and a step2 directory,
// planned afterwards (none: step1 again). A modules directory beside them
// holds the local modules both steps call.

// showJSONCase is one plan made for the show -json tests.
type showJSONCase struct {
	name, dir string
	// args are extra plan arguments.
	args []string
	// sameConfig plans step1 again even when there is a step2.
	sameConfig bool
	// taint and depose name instances whose state the test changes after
	// step1: tainted, or given a deposed object as a failed
	// create_before_destroy replacement leaves behind.
	taint, depose []string
}

var showJSONCases = []showJSONCase{
	{name: "create", dir: "create"},
	{name: "update", dir: "update"},
	{name: "sensitive", dir: "sensitive"},
	{name: "relevant", dir: "relevant"},
	{name: "taint", dir: "taint", taint: []string{"terraform_data.t", "terraform_data.plain[1]"}, depose: []string{"terraform_data.d"}},
	{name: "replace-request", dir: "taint", args: []string{"-replace=terraform_data.plain[1]"}},
	{name: "destroy", dir: "update", args: []string{"-destroy"}, sameConfig: true},
	{name: "modules", dir: "modules"},
	{name: "modules-unchanged", dir: "modules", sameConfig: true},
	{name: "modules-destroy", dir: "modules", args: []string{"-destroy"}, sameConfig: true},
	{name: "checks", dir: "checks"},
	{name: "conditions", dir: "conditions"},
	{name: "conditions-destroy", dir: "conditions", args: []string{"-destroy"}},
	{name: "naming", dir: "naming"},
	{name: "naming-unchanged", dir: "naming", sameConfig: true},
	{name: "forget", dir: "forget"},
}

// useStep replaces the configuration files in dir with those of a step of
// a testdata/showjson case, and reports whether the step exists.
func useStep(t *testing.T, dir, name, step string) bool {
	t.Helper()
	src := filepath.Join("testdata", "showjson", name, step)
	entries, err := os.ReadDir(src)
	if os.IsNotExist(err) {
		return false
	} else if err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadDir(dir)
	for _, e := range old {
		if n := e.Name(); strings.HasSuffix(n, ".tf") || strings.HasSuffix(n, ".tf.json") {
			if err := os.Remove(filepath.Join(dir, n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, e := range entries {
		writeFile(t, filepath.Join(dir, e.Name()), string(readFile(t, filepath.Join(src, e.Name()))))
	}
	if mods := filepath.Join("testdata", "showjson", name, "modules"); isDir(mods) {
		copyModules(t, mods, filepath.Join(dir, "modules"))
	}
	return true
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// planStep returns the step a case plans.
func (c showJSONCase) planStep(t *testing.T) string {
	if _, err := os.Stat(filepath.Join("testdata", "showjson", c.dir, "step2")); err == nil && !c.sameConfig {
		return "step2"
	}
	return "step1"
}

// patchState taints instances and adds deposed objects in the state file
// of dir, as Terraform would have left them.
func patchState(t *testing.T, dir string, taint, depose []string) {
	t.Helper()
	if len(taint)+len(depose) == 0 {
		return
	}
	path := filepath.Join(dir, "terraform.tfstate")
	var s map[string]any
	if err := json.Unmarshal(readFile(t, path), &s); err != nil {
		t.Fatal(err)
	}
	in := func(list []string, s string) bool {
		for _, x := range list {
			if x == s {
				return true
			}
		}
		return false
	}
	for _, r := range s["resources"].([]any) {
		r := r.(map[string]any)
		insts := r["instances"].([]any)
		for _, i := range insts {
			inst := i.(map[string]any)
			addr := fmt.Sprintf("%s.%s", r["type"], r["name"])
			switch k := inst["index_key"].(type) {
			case float64:
				addr += fmt.Sprintf("[%d]", int(k))
			case string:
				addr += fmt.Sprintf("[%q]", k)
			}
			if in(taint, addr) {
				inst["status"] = "tainted"
			}
			if in(depose, addr) {
				var dep map[string]any
				b, _ := json.Marshal(inst)
				_ = json.Unmarshal(b, &dep)
				dep["deposed"] = "00000001"
				attrs := dep["attributes"].(map[string]any)
				attrs["input"] = map[string]any{"value": "old", "type": "string"}
				attrs["output"] = map[string]any{"value": "old", "type": "string"}
				insts = append(insts, dep)
			}
		}
		r["instances"] = insts
	}
	s["serial"] = s["serial"].(float64) + 1
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(data))
}

func parsePlanJSON(t *testing.T, data string) *tfjson.Plan {
	t.Helper()
	var p tfjson.Plan
	if err := json.Unmarshal([]byte(data), &p); err != nil {
		t.Fatalf("terraform-json cannot parse the plan: %v\n%s", err, data)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("terraform-json rejects the plan: %v", err)
	}
	return &p
}

func parseStateJSON(t *testing.T, data string) *tfjson.State {
	t.Helper()
	var s tfjson.State
	if err := json.Unmarshal([]byte(data), &s); err != nil {
		t.Fatalf("terraform-json cannot parse the state: %v\n%s", err, data)
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("terraform-json rejects the state: %v", err)
	}
	return &s
}

// TestE2EShowJSONState: show -json prints the JSON state document, which
// terraform-json reads: resources with their index, values and sensitive
// markers, outputs with their types.
func TestE2EShowJSONState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := mustStrata(t, dir, 0, "show", "-json")
	if r.stdout != `{"format_version":"1.0"}`+"\n" {
		t.Fatalf("show -json with no state: %q", r.stdout)
	}
	parseStateJSON(t, r.stdout)

	useStep(t, dir, "create", "step2")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	out := mustStrata(t, dir, 0, "show", "-json").stdout
	s := parseStateJSON(t, out)
	if s.FormatVersion != "1.0" || s.TerraformVersion != TerraformCompatVersion {
		t.Errorf("versions: %q %q", s.FormatVersion, s.TerraformVersion)
	}
	byAddr := map[string]*tfjson.StateResource{}
	var addrs []string
	for _, r := range s.Values.RootModule.Resources {
		byAddr[r.Address] = r
		addrs = append(addrs, r.Address)
	}
	wantAddrs := []string{
		"terraform_data.constant[0]", "terraform_data.constant[1]", "terraform_data.counted[0]", "terraform_data.counted[1]",
		`terraform_data.each["a"]`, `terraform_data.each["b"]`, "terraform_data.first", "terraform_data.from_json", "terraform_data.secret",
	}
	if !reflect.DeepEqual(addrs, wantAddrs) {
		t.Fatalf("resources:\n%v\nwant\n%v", addrs, wantAddrs)
	}
	if r := byAddr["terraform_data.counted[1]"]; r.Index != float64(1) || r.Mode != tfjson.ManagedResourceMode || r.ProviderName != "terraform.io/builtin/terraform" || r.AttributeValues["output"] != "B-1" {
		t.Errorf("counted[1]: %+v", r)
	}
	if r := byAddr[`terraform_data.each["b"]`]; r.Index != "b" || len(r.DependsOn) == 0 || r.DependsOn[0] != "terraform_data.counted" {
		t.Errorf(`each["b"]: index %v, depends_on %v`, r.Index, r.DependsOn)
	}
	var sens map[string]any
	if err := json.Unmarshal(byAddr["terraform_data.secret"].SensitiveValues, &sens); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"input":  map[string]any{"password": true, "list": []any{true, false}},
		"output": map[string]any{"list": []any{false, false}},
	}
	if !reflect.DeepEqual(sens, want) {
		t.Errorf("sensitive_values of terraform_data.secret: %v, want %v", sens, want)
	}
	if o := s.Values.Outputs["secret"]; o == nil || !o.Sensitive {
		t.Errorf("output secret: %+v", o)
	}
	if o := s.Values.Outputs["counted"]; o == nil || o.Sensitive || !reflect.DeepEqual(o.Value, []any{"A-1", "B-1"}) {
		t.Errorf("output counted: %+v", o)
	}

	// A state file given as the argument is shown the same way.
	if got := mustStrata(t, dir, 0, "show", "-json", "terraform.tfstate").stdout; got != out {
		t.Errorf("show -json terraform.tfstate differs from show -json:\n%s\n%s", got, out)
	}
	// Without -json, show stays human.
	if r := mustStrata(t, dir, 0, "show", "-no-color"); strings.HasPrefix(r.stdout, "{") {
		t.Errorf("show without -json printed JSON: %s", r.stdout)
	}
}

// TestE2EShowJSONPlan: show -json PLANFILE prints the JSON plan document
// with every kind of change, the reasons for them, sensitive and unknown
// markers and the configuration.
func TestE2EShowJSONPlan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	useStep(t, dir, "update", "step1")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	useStep(t, dir, "update", "step2")
	mustStrata(t, dir, 0, "plan", "-no-color", "-out=tfplan")
	out := mustStrata(t, dir, 0, "show", "-json", "tfplan").stdout
	p := parsePlanJSON(t, out)
	if p.FormatVersion != "1.2" || p.TerraformVersion != TerraformCompatVersion || p.Complete == nil || !*p.Complete {
		t.Errorf("header: %q %q complete=%v", p.FormatVersion, p.TerraformVersion, p.Complete)
	}
	if flags := planFlags(t, out); flags != [2]bool{true, false} {
		t.Errorf("applyable, errored: %v, want true, false", flags)
	}
	type want struct {
		actions tfjson.Actions
		reason  string
	}
	wants := map[string]want{
		"terraform_data.same":       {tfjson.Actions{tfjson.ActionNoop}, ""},
		"terraform_data.update":     {tfjson.Actions{tfjson.ActionUpdate}, ""},
		"terraform_data.replace":    {tfjson.Actions{tfjson.ActionDelete, tfjson.ActionCreate}, "replace_because_cannot_update"},
		"terraform_data.cbd":        {tfjson.Actions{tfjson.ActionCreate, tfjson.ActionDelete}, "replace_because_cannot_update"},
		"terraform_data.orphan":     {tfjson.Actions{tfjson.ActionDelete}, "delete_because_no_resource_config"},
		"terraform_data.counted[0]": {tfjson.Actions{tfjson.ActionNoop}, ""},
		"terraform_data.counted[1]": {tfjson.Actions{tfjson.ActionNoop}, ""},
		"terraform_data.counted[2]": {tfjson.Actions{tfjson.ActionDelete}, "delete_because_count_index"},
		`terraform_data.each["a"]`:  {tfjson.Actions{tfjson.ActionNoop}, ""},
		`terraform_data.each["b"]`:  {tfjson.Actions{tfjson.ActionNoop}, ""},
		`terraform_data.each["c"]`:  {tfjson.Actions{tfjson.ActionDelete}, "delete_because_each_key"},
		"terraform_data.rep[0]":     {tfjson.Actions{tfjson.ActionCreate}, ""},
		`terraform_data.rep["x"]`:   {tfjson.Actions{tfjson.ActionDelete}, "delete_because_wrong_repetition"},
		`terraform_data.rep["y"]`:   {tfjson.Actions{tfjson.ActionDelete}, "delete_because_wrong_repetition"},
		"terraform_data.new":        {tfjson.Actions{tfjson.ActionCreate}, ""},
	}
	changes := map[string]*tfjson.ResourceChange{}
	for _, rc := range p.ResourceChanges {
		changes[rc.Address] = rc
		w, ok := wants[rc.Address]
		if !ok {
			t.Errorf("unexpected change of %s", rc.Address)
			continue
		}
		if !reflect.DeepEqual(rc.Change.Actions, w.actions) || string(rc.ActionReason) != w.reason {
			t.Errorf("%s: actions %v reason %q, want %v %q", rc.Address, rc.Change.Actions, rc.ActionReason, w.actions, w.reason)
		}
	}
	if len(changes) != len(wants) {
		t.Errorf("%d resource changes, want %d", len(changes), len(wants))
	}
	if rc := changes["terraform_data.replace"]; rc == nil || !reflect.DeepEqual(rc.Change.ReplacePaths, []any{[]any{"triggers_replace"}}) {
		t.Errorf("replace_paths: %+v", rc.Change.ReplacePaths)
	}
	up := changes["terraform_data.update"].Change
	if bs := up.BeforeSensitive.(map[string]any); !reflect.DeepEqual(bs["input"].(map[string]any)["password"], true) {
		t.Errorf("before_sensitive of update: %v", up.BeforeSensitive)
	}
	if au := up.AfterUnknown.(map[string]any); au["output"] != true {
		t.Errorf("after_unknown of update: %v", up.AfterUnknown)
	}
	if after := up.After.(map[string]any); after["input"].(map[string]any)["user"] != "root" || after["output"] != nil {
		t.Errorf("after of update (output is unknown, so left out): %v", up.After)
	}
	if del := changes["terraform_data.orphan"].Change; del.After != nil || del.AfterSensitive != false || del.Before.(map[string]any)["input"] != "gone soon" {
		t.Errorf("delete change: %+v", del)
	}

	wantOutputs := map[string]tfjson.Actions{
		"same": {tfjson.ActionNoop}, "changing": {tfjson.ActionUpdate}, "removed": {tfjson.ActionDelete},
		"secret": {tfjson.ActionUpdate}, "list": {tfjson.ActionUpdate}, "added": {tfjson.ActionCreate}, "known": {tfjson.ActionCreate},
	}
	for name, actions := range wantOutputs {
		oc := p.OutputChanges[name]
		if oc == nil || !reflect.DeepEqual(oc.Actions, actions) {
			t.Errorf("output %s: %+v, want %v", name, oc, actions)
		}
	}
	if oc := p.OutputChanges["secret"]; oc.BeforeSensitive != true || oc.AfterSensitive != true || oc.After != "two" {
		t.Errorf("sensitive output change: %+v", oc)
	}
	if oc := p.OutputChanges["added"]; !reflect.DeepEqual(oc.AfterUnknown, map[string]any{"b": []any{false, false}, "c": true}) {
		t.Errorf("after_unknown of added: %v", oc.AfterUnknown)
	}
	if o := p.PlannedValues.Outputs["known"]; o == nil || o.Value != "k" {
		t.Errorf("planned output known: %+v", o)
	}
	if o := p.PlannedValues.Outputs["added"]; o == nil || o.Value != nil {
		t.Errorf("planned output added (partly unknown, so without value): %+v", o)
	}
	if v := p.Variables["password"]; v == nil || v.Value != "two" {
		t.Errorf("variables: %+v", p.Variables)
	}
	if p.PriorState == nil || len(p.PriorState.Values.RootModule.Resources) != 13 {
		t.Errorf("prior_state: %+v", p.PriorState)
	}

	cfg := p.Config.RootModule
	var newRes *tfjson.ConfigResource
	for _, r := range cfg.Resources {
		if r.Address == "terraform_data.new" {
			newRes = r
		}
	}
	if newRes == nil {
		t.Fatal("configuration has no terraform_data.new")
	}
	if refs := newRes.Expressions["triggers_replace"].References; !reflect.DeepEqual(refs, []string{"terraform_data.update.id", "terraform_data.update", "var.extra"}) {
		t.Errorf("references of new.triggers_replace: %v", refs)
	}
	if !reflect.DeepEqual(newRes.DependsOn, []string{"terraform_data.replace"}) || newRes.ProviderConfigKey != "terraform" {
		t.Errorf("configuration of new: %+v", newRes)
	}
	if v := cfg.Variables["password"]; v == nil || !v.Sensitive || v.Default != "two" {
		t.Errorf("configuration variable password: %+v", v)
	}
	if o := cfg.Outputs["secret"]; o == nil || !o.Sensitive {
		t.Errorf("configuration output secret: %+v", o)
	}
	if pc := p.Config.ProviderConfigs["terraform"]; pc == nil || pc.FullName != "terraform.io/builtin/terraform" {
		t.Errorf("provider_config: %+v", p.Config.ProviderConfigs)
	}
	found := false
	for _, ra := range p.RelevantAttributes {
		found = found || (ra.Resource == "terraform_data.update" && len(ra.Attribute) == 1 && string(ra.Attribute[0]) == `"id"`)
	}
	if !found {
		t.Errorf("relevant_attributes lack terraform_data.update id: %+v", p.RelevantAttributes)
	}

	// Once applied, the same configuration plans nothing: not applyable.
	mustStrata(t, dir, 0, "apply", "-no-color", "tfplan")
	mustStrata(t, dir, 0, "plan", "-no-color", "-out=again")
	out = mustStrata(t, dir, 0, "show", "-json", "again").stdout
	p = parsePlanJSON(t, out)
	if flags := planFlags(t, out); flags[0] || p.RelevantAttributes != nil {
		t.Errorf("no-change plan: applyable=%v relevant_attributes=%v", flags[0], p.RelevantAttributes)
	}
	for _, rc := range p.ResourceChanges {
		if !rc.Change.Actions.NoOp() {
			t.Errorf("no-change plan changes %s: %v", rc.Address, rc.Change.Actions)
		}
	}
}

// planFlags returns the "applyable" and "errored" fields of a plan
// document, which terraform-json does not decode.
func planFlags(t *testing.T, doc string) [2]bool {
	t.Helper()
	var flags struct {
		Applyable *bool `json:"applyable"`
		Errored   *bool `json:"errored"`
	}
	if err := json.Unmarshal([]byte(doc), &flags); err != nil || flags.Applyable == nil || flags.Errored == nil {
		t.Fatalf("plan without applyable and errored (%v): %s", err, doc)
	}
	return [2]bool{*flags.Applyable, *flags.Errored}
}

// TestE2EShowJSONMatchesTerraform plans each case with Terraform and with
// strata from the same state and compares the documents field by field.
// Only these are left out: the top-level "timestamp" (when each plan was
// made) and "terraform_version" (that of the installed terraform, which
// need not be the version strata implements). relevant_attributes are
// compared as a set, since Terraform lists them in no fixed order.
func TestE2EShowJSONMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	for _, c := range showJSONCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tfOK := func(args ...string) string {
				t.Helper()
				r := runIn(t, dir, "", tf, args...)
				if r.code != 0 {
					t.Fatalf("terraform %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
				}
				return r.stdout
			}
			if useStep(t, dir, c.dir, "step1") {
				tfOK("init", "-no-color", "-input=false")
				tfOK("apply", "-auto-approve", "-no-color", "-input=false")
				patchState(t, dir, c.taint, c.depose)
				compareShowJSON(t, "state", tfOK("show", "-json"), mustStrata(t, dir, 0, "show", "-json").stdout)
			}
			useStep(t, dir, c.dir, c.planStep(t))
			tfOK("init", "-no-color", "-input=false")
			tfOK(append([]string{"plan", "-no-color", "-input=false", "-out=tf.tfplan"}, c.args...)...)
			mustStrata(t, dir, 0, append([]string{"plan", "-no-color", "-input=false", "-out=strata.tfplan"}, c.args...)...)
			want := tfOK("show", "-json", "tf.tfplan")
			got := mustStrata(t, dir, 0, "show", "-json", "strata.tfplan").stdout
			parsePlanJSON(t, got)
			compareShowJSON(t, "plan", want, got)
		})
	}
}

// compareShowJSON reports every difference between Terraform's document
// and strata's. Child modules are compared in address order: Terraform
// lists a module's child modules in the order it happened to plan them,
// except at the top of the tree.
func compareShowJSON(t *testing.T, what, want, got string) {
	t.Helper()
	decode := func(s string) any {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: invalid JSON: %v\n%s", what, err, s)
		}
		doc := v.(map[string]any)
		sortChildModules(doc)
		delete(doc, "timestamp")
		delete(doc, "terraform_version")
		if ps, ok := doc["prior_state"].(map[string]any); ok {
			delete(ps, "terraform_version")
		}
		if ra, ok := doc["relevant_attributes"].([]any); ok {
			sort.Slice(ra, func(i, j int) bool {
				a, _ := json.Marshal(ra[i])
				b, _ := json.Marshal(ra[j])
				return bytes.Compare(a, b) < 0
			})
		}
		return doc
	}
	var diffs, tolerated []string
	jsonDiff(decode(want), decode(got), what, &diffs, &tolerated)
	for _, d := range diffs {
		t.Errorf("%s", d)
	}
	for _, d := range tolerated {
		t.Logf("tolerated (terraform_data plans unknown outputs as dynamic): %s", d)
	}
	if len(diffs) > 0 {
		t.Logf("terraform:\n%s\nstrata:\n%s", want, got)
	}
}

// sortChildModules orders every "child_modules" list in a decoded
// document by address.
func sortChildModules(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			if list, ok := c.([]any); ok && k == "child_modules" {
				sort.SliceStable(list, func(i, j int) bool {
					a, _ := list[i].(map[string]any)
					b, _ := list[j].(map[string]any)
					return fmt.Sprint(a["address"]) < fmt.Sprint(b["address"])
				})
			}
			sortChildModules(c)
		}
	case []any:
		for _, c := range v {
			sortChildModules(c)
		}
	}
}

// jsonDiff appends a line for each difference between two decoded JSON
// values, naming its path.
func jsonDiff(want, got any, path string, diffs, tolerated *[]string) {
	show := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: terraform %s, strata %s", path, show(want), show(got)))
			return
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inG && knownUnknownTypeDifference(path, wv):
				*tolerated = append(*tolerated, fmt.Sprintf("%s.%s: only in terraform's document: %s", path, k, show(wv)))
			case !inG:
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: only in terraform's document: %s", path, k, show(wv)))
			case !inW:
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: only in strata's document: %s", path, k, show(gv)))
			default:
				jsonDiff(wv, gv, path+"."+k, diffs, tolerated)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*diffs = append(*diffs, fmt.Sprintf("%s: terraform %s, strata %s", path, show(want), show(got)))
			return
		}
		for i := range w {
			label := fmt.Sprintf("%s[%d]", path, i)
			if m, ok := w[i].(map[string]any); ok && m["address"] != nil {
				label = fmt.Sprintf("%s[%v]", path, m["address"])
				if d, ok := m["deposed"]; ok {
					label += fmt.Sprintf("(deposed %v)", d)
				}
				if d, ok := m["deposed_key"]; ok {
					label += fmt.Sprintf("(deposed %v)", d)
				}
			}
			jsonDiff(w[i], g[i], label, diffs, tolerated)
		}
	default:
		if !reflect.DeepEqual(want, got) {
			*diffs = append(*diffs, fmt.Sprintf("%s: terraform %s, strata %s", path, show(want), show(got)))
		}
	}
}

// knownUnknownTypeDifference reports the one tolerated difference, which
// is not in the JSON rendering but in strata's built-in terraform_data
// provider: it plans an unknown "output" as a value of dynamic type,
// where Terraform's plans it with the type of "input". For an object or
// list input, Terraform's sensitivity tree therefore has an empty {} or
// [] for the unknown value, and strata's has nothing (a dynamic value is
// false). The difference carries over to attributes set from such an
// output. It is accepted only there: an empty tree directly under a
// resource's after_sensitive or sensitive_values.
func knownUnknownTypeDifference(path string, want any) bool {
	if !strings.HasSuffix(path, ".after_sensitive") && !strings.HasSuffix(path, ".sensitive_values") {
		return false
	}
	switch w := want.(type) {
	case map[string]any:
		return len(w) == 0
	case []any:
		return len(w) == 0
	}
	return false
}
