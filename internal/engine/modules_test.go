package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
	"github.com/strata-dev/strata/internal/states"
)

// childEcho is a module with one terraform_data whose input is var.in, and
// outputs for its input, its output and path.module.
const childEcho = `
variable "in" {
  type    = string
  default = "dflt"
}
resource "terraform_data" "r" {
  input = var.in
}
output "in" {
  value = var.in
}
output "out" {
  value = terraform_data.r.output
}
output "path" {
  value = path.module
}
`

// sortedAddrs returns the addresses a plan has changes for, sorted.
func sortedAddrs(p *plans.Plan) []string {
	var ret []string
	for addr := range actions(p) {
		ret = append(ret, addr)
	}
	sort.Strings(ret)
	return ret
}

// stateAddrs returns every instance address in the state, sorted.
func stateAddrs(s *states.State) []string {
	var ret []string
	for _, a := range s.AllInstances() {
		ret = append(ret, a.String())
	}
	sort.Strings(ret)
	return ret
}

// outputString returns a root output of the state as a Go string.
func outputString(t *testing.T, s *states.State, name string) string {
	t.Helper()
	o := s.Outputs[name]
	if o == nil {
		t.Fatalf("output %q not in state; outputs: %v", name, s.Outputs)
	}
	v, _ := o.Value.Unmark()
	if v.Type() != cty.String {
		t.Fatalf("output %q is %s, not a string", name, v.GoString())
	}
	return v.AsString()
}

func TestModuleExpansion(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		root string
		want []string // planned creates
	}{
		"single": {
			root: `module "m" { source = "./child" }`,
			want: []string{"module.m.terraform_data.r"},
		},
		"count": {
			root: `
module "m" {
  source = "./child"
  count  = 3
  in     = "i${count.index}"
}`,
			want: []string{"module.m[0].terraform_data.r", "module.m[1].terraform_data.r", "module.m[2].terraform_data.r"},
		},
		"count zero": {
			root: `
module "m" {
  source = "./child"
  count  = 0
}
output "all" { value = module.m[*].out }`,
		},
		"for_each set": {
			root: `
module "m" {
  source   = "./child"
  for_each = toset(["b", "a"])
  in       = each.key
}`,
			want: []string{`module.m["a"].terraform_data.r`, `module.m["b"].terraform_data.r`},
		},
		"for_each map of objects": {
			root: `
module "m" {
  source   = "./child"
  for_each = { x = { v = "1" }, y = { v = "2" } }
  in       = each.value.v
}`,
			want: []string{`module.m["x"].terraform_data.r`, `module.m["y"].terraform_data.r`},
		},
		"count from a variable and a local": {
			root: `
variable "n" { default = 2 }
locals { n = var.n - 1 }
module "m" {
  source = "./child"
  count  = local.n
}`,
			want: []string{"module.m[0].terraform_data.r"},
		},
		"count from another module's output": {
			root: `
module "size" {
  source = "./child"
  in     = "2"
}
module "m" {
  source = "./child"
  count  = module.size.in
}`,
			want: []string{"module.m[0].terraform_data.r", "module.m[1].terraform_data.r", "module.size.terraform_data.r"},
		},
		"same module called twice": {
			root: `
module "a" { source = "./child" }
module "b" { source = "./child" }`,
			want: []string{"module.a.terraform_data.r", "module.b.terraform_data.r"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": tc.root, "child/main.tf": childEcho}))
			plan, state := planApply(t, e, nil, PlanOpts{})
			if diff := cmp.Diff(tc.want, sortedAddrs(plan)); diff != "" {
				t.Errorf("wrong planned addresses (-want +got)\n%s", diff)
			}
			for _, c := range plan.Changes.Resources {
				if c.Action != plans.Create {
					t.Errorf("%s: action %s, want Create", c.Addr, c.Action)
				}
			}
			if diff := cmp.Diff(tc.want, stateAddrs(state)); diff != "" {
				t.Errorf("wrong state addresses (-want +got)\n%s", diff)
			}
			// A second plan has nothing to do.
			plan2, diags := e.Plan(context.Background(), state, PlanOpts{})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if plan2.Changes.HasChanges() {
				t.Errorf("second plan has changes: %v", actions(plan2))
			}
		})
	}
}

func TestModuleInstanceValues(t *testing.T) {
	t.Parallel()
	e := builtinEngine(testConfigInline(t, map[string]string{
		"main.tf": `
module "c" {
  source = "./modules/child"
  count  = 2
  in     = "c${count.index}"
}
module "e" {
  source   = "./modules/child"
  for_each = { x = "ex", y = "why" }
  in       = each.value
}
module "one" {
  source = "./modules/child"
}
resource "terraform_data" "root" {
  input = [for m in module.c : m.out]
}
resource "terraform_data" "from_each" {
  input = module.e["y"].out
}
output "c1" { value = module.c[1].out }
output "ex" { value = module.e["x"].out }
output "one_in" { value = module.one.in }
output "splat" { value = join(",", module.c[*].in) }
output "keys" { value = join(",", keys(module.e)) }
output "path" { value = module.one.path }
output "whole" { value = module.one }
`,
		"modules/child/main.tf": childEcho,
	}))
	plan, state := planApply(t, e, nil, PlanOpts{})
	if got := plan.Changes.Resource(mustInstance(t, "terraform_data.from_each")); got == nil || got.Action != plans.Create {
		t.Fatalf("terraform_data.from_each not planned for creation: %v", actions(plan))
	}
	for name, want := range map[string]string{
		"c1": "c1", "ex": "ex", "one_in": "dflt", "splat": "c0,c1", "keys": "x,y",
	} {
		if got := outputString(t, state, name); got != want {
			t.Errorf("output %s = %q, want %q", name, got, want)
		}
	}
	if got := objectAttr(t, state, "terraform_data.root", "output"); got != `["c0","c1"]` {
		t.Errorf("terraform_data.root output = %s", got)
	}
	if got := objectAttr(t, state, "terraform_data.from_each", "output"); got != `"why"` {
		t.Errorf("terraform_data.from_each output = %s", got)
	}
	// path.module is the directory of the module, path.root the root's.
	if got := outputString(t, state, "path"); !strings.HasSuffix(got, "/modules/child") {
		t.Errorf("path.module in the child = %q, want it to end in /modules/child", got)
	}
	whole := state.Outputs["whole"].Value
	if !whole.Type().IsObjectType() || !whole.Type().HasAttribute("out") || whole.GetAttr("in").AsString() != "dflt" {
		t.Errorf("module.one as a value = %#v", whole)
	}
	// The root resource recorded that it depends on the module's resource.
	obj := state.Object(mustInstance(t, "terraform_data.root"))
	if len(obj.Dependencies) != 1 || obj.Dependencies[0].String() != "module.c.terraform_data.r" {
		t.Errorf("terraform_data.root dependencies = %v, want [module.c.terraform_data.r]", obj.Dependencies)
	}
}

func TestModuleNestedThreeDeep(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"main.tf": `
module "a" {
  source = "./a"
  tag    = "root"
}
output "deep" { value = module.a.deep }
output "keys" { value = module.a.keys }
`,
		"a/main.tf": `
variable "tag" {}
module "b" {
  source = "../b"
  count  = 2
  tag    = "${var.tag}/a"
}
output "deep" { value = module.b[1].deep }
output "keys" { value = join(",", flatten([for b in module.b : b.keys])) }
`,
		"b/main.tf": `
variable "tag" {}
module "c" {
  source   = "../c"
  for_each = toset(["p", "q"])
  tag      = "${var.tag}/b/${each.key}"
}
output "deep" { value = module.c["q"].value }
output "keys" { value = [for k, c in module.c : c.value] }
`,
		"c/main.tf": `
variable "tag" {}
resource "terraform_data" "leaf" {
  input = "${var.tag}/c"
}
output "value" { value = terraform_data.leaf.output }
`,
	}
	e := builtinEngine(testConfigInline(t, files))
	plan, state := planApply(t, e, nil, PlanOpts{})
	want := []string{
		`module.a.module.b[0].module.c["p"].terraform_data.leaf`,
		`module.a.module.b[0].module.c["q"].terraform_data.leaf`,
		`module.a.module.b[1].module.c["p"].terraform_data.leaf`,
		`module.a.module.b[1].module.c["q"].terraform_data.leaf`,
	}
	if diff := cmp.Diff(want, sortedAddrs(plan)); diff != "" {
		t.Errorf("wrong planned addresses (-want +got)\n%s", diff)
	}
	if got := outputString(t, state, "deep"); got != "root/a/b/q/c" {
		t.Errorf("deep = %q", got)
	}
	if got := outputString(t, state, "keys"); got != "root/a/b/p/c,root/a/b/q/c,root/a/b/p/c,root/a/b/q/c" {
		t.Errorf("keys = %q", got)
	}
	if got := objectAttr(t, state, `module.a.module.b[1].module.c["p"].terraform_data.leaf`, "input"); got != `"root/a/b/p/c"` {
		t.Errorf("leaf input = %s", got)
	}
}

func TestModuleInputs(t *testing.T) {
	t.Parallel()
	child := `
variable "n" {
  type = number
  validation {
    condition     = var.n < 10
    error_message = "n must be below 10."
  }
}
variable "obj" {
  type    = object({ a = string, b = optional(number, 7) })
  default = { a = "default-a" }
}
variable "list" {
  type    = list(string)
  default = []
}
variable "nullable" {
  type     = string
  default  = "fallback"
  nullable = false
}
variable "secret" {
  type      = string
  default   = "none"
  sensitive = true
}
resource "terraform_data" "r" {
  input = var.secret
}
output "n_plus_one" { value = var.n + 1 }
output "obj" { value = var.obj }
output "list" { value = var.list }
output "nullable" { value = var.nullable }
output "secret" {
  value     = var.secret
  sensitive = true
}
`
	t.Run("defaults and conversion", func(t *testing.T) {
		t.Parallel()
		e := builtinEngine(testConfigInline(t, map[string]string{
			"main.tf": `
module "m" {
  source   = "./child"
  n        = "5"
  obj      = { a = "x" }
  list     = toset(["b", "a"])
  nullable = null
}
module "d" {
  source = "./child"
  n      = 1
}
output "n" { value = module.m.n_plus_one }
output "b" { value = module.m.obj.b }
output "da" { value = module.d.obj.a }
output "list" { value = module.m.list }
output "nullable" { value = module.m.nullable }
`,
			"child/main.tf": child,
		}))
		_, state := planApply(t, e, nil, PlanOpts{})
		want := map[string]cty.Value{
			"n":        cty.NumberIntVal(6),
			"b":        cty.NumberIntVal(7),
			"da":       cty.StringVal("default-a"),
			"list":     cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
			"nullable": cty.StringVal("fallback"),
		}
		for name, w := range want {
			got := state.Outputs[name]
			if got == nil || !got.Value.RawEquals(w) {
				t.Errorf("output %s = %#v, want %#v", name, got, w)
			}
		}
	})

	t.Run("null for a required non-nullable variable", func(t *testing.T) {
		t.Parallel()
		e := builtinEngine(testConfigInline(t, map[string]string{
			"main.tf": `
module "m" {
  source = "./child"
  x      = null
}
`,
			"child/main.tf": `
variable "x" {
  type     = string
  nullable = false
}
`,
		}))
		_, diags := e.Plan(context.Background(), nil, PlanOpts{})
		// Terraform's wording, for root and module variables alike.
		// (The test configuration's paths are absolute.)
		want := "The given value is not suitable for module.m.var.x defined at .*child/main.tf:2,1-13: required variable may not be set to null."
		if len(diags) != 1 || diags[0].Summary != "Required variable not set" || !regexp.MustCompile("^"+want+"$").MatchString(diags[0].Detail) {
			t.Errorf("diagnostics: %v\nwant detail %q", diags, want)
		}
	})

	t.Run("sensitive stays marked", func(t *testing.T) {
		t.Parallel()
		e := builtinEngine(testConfigInline(t, map[string]string{
			"main.tf": `
variable "pw" {
  default   = "hunter2"
  sensitive = true
}
module "m" {
  source = "./child"
  n      = 1
  secret = "s3cret"
}
module "via_root" {
  source = "./passthrough"
  in     = var.pw
}
output "secret" {
  value     = module.m.secret
  sensitive = true
}
resource "terraform_data" "uses" {
  input = module.via_root.out
}
`,
			"child/main.tf": child,
			"passthrough/main.tf": `
variable "in" {}
output "out" { value = var.in }
`,
		}))
		plan, state := planApply(t, e, nil, PlanOpts{})
		r := plan.Changes.Resource(mustInstance(t, "module.m.terraform_data.r"))
		if r == nil || !r.After.GetAttr("input").HasMark(marks.Sensitive) {
			t.Errorf("the input set from a sensitive variable is not marked sensitive in the plan")
		}
		u := plan.Changes.Resource(mustInstance(t, "terraform_data.uses"))
		if u == nil || !u.After.GetAttr("input").HasMark(marks.Sensitive) {
			t.Errorf("a sensitive root variable passed through a module output lost its mark")
		}
		for _, oc := range plan.Changes.Outputs {
			if oc.Name == "secret" && (!oc.Sensitive || !oc.After.HasMark(marks.Sensitive)) {
				t.Errorf("output secret planned as not sensitive")
			}
		}
		if o := state.Outputs["secret"]; o == nil || !o.Sensitive || !o.Value.RawEquals(cty.StringVal("s3cret").Mark(marks.Sensitive)) {
			t.Errorf("output secret in state = %#v", o)
		}
		for _, addr := range []string{"module.m.terraform_data.r", "terraform_data.uses"} {
			obj := state.Object(mustInstance(t, addr))
			if obj == nil || len(obj.SensitivePaths) == 0 {
				t.Errorf("%s: no sensitive paths recorded in the state", addr)
			}
		}
	})

	t.Run("sensitive module output in an unmarked root output", func(t *testing.T) {
		t.Parallel()
		e := builtinEngine(testConfigInline(t, map[string]string{
			"main.tf": `
module "m" {
  source = "./child"
  n      = 1
}
output "leak" { value = module.m.secret }
`,
			"child/main.tf": child,
		}))
		_, diags := e.Plan(context.Background(), nil, PlanOpts{})
		assertEngineDiags(t, diags, []string{"Output refers to sensitive values @ main.tf:6"})
	})

	errs := map[string]struct {
		root string
		want []string
	}{
		"validation rule": {
			root: `
module "m" {
  source = "./child"
  n      = 12
}`,
			// As in Terraform, the subject is the argument in the caller.
			want: []string{"Invalid value for variable @ main.tf:4"},
		},
		"validation rule in one instance": {
			root: `
module "m" {
  source = "./child"
  count  = 2
  n      = count.index * 10
}`,
			want: []string{"Invalid value for variable @ main.tf:5"},
		},
		"wrong type": {
			root: `
module "m" {
  source = "./child"
  n      = "five"
}`,
			want: []string{"Invalid value for input variable @ main.tf:4"},
		},
		"wrong object attribute": {
			root: `
module "m" {
  source = "./child"
  n      = 1
  obj    = { b = 1 }
}`,
			want: []string{"Invalid value for input variable @ main.tf:5"},
		},
	}
	for name, tc := range errs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": tc.root, "child/main.tf": child}))
			_, diags := e.Plan(context.Background(), nil, PlanOpts{})
			assertEngineDiags(t, diags, tc.want)
		})
	}
}

// assertEngineDiags compares the error diagnostics with want, each written
// "Summary @ file:line" (file relative to the configuration's directory)
// or just "Summary" when it has no subject.
func assertEngineDiags(t *testing.T, diags hcl.Diagnostics, want []string) {
	t.Helper()
	var got []string
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		s := d.Summary
		if d.Subject != nil {
			s += fmt.Sprintf(" @ %s:%d", tempDirRe.ReplaceAllString(filepath.ToSlash(d.Subject.Filename), ""), d.Subject.Start.Line)
		}
		got = append(got, s)
	}
	sort.Strings(got)
	sort.Strings(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong errors (-want +got)\n%s\nall diagnostics: %s", diff, diags.Error())
	}
}

// tempDirRe matches the t.TempDir() prefix of a configuration file's path.
var tempDirRe = regexp.MustCompile(`^.*/[0-9]{3}/`)

// orderRecorder records the order in which a fake provider applies
// changes, by the "name" of the object created or deleted.
type orderRecorder struct {
	mu    sync.Mutex
	order []string
}

func (r *orderRecorder) add(s string) {
	r.mu.Lock()
	r.order = append(r.order, s)
	r.mu.Unlock()
}

func (r *orderRecorder) index(t *testing.T, s string) int {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, o := range r.order {
		if o == s {
			return i
		}
	}
	t.Fatalf("%s was not applied; order: %v", s, r.order)
	return -1
}

// recordingProvider is a test provider that records the order of applies
// in rec and gives created objects the id "id-NAME".
func recordingProvider(rec *orderRecorder) *providertest.Provider {
	p := &providertest.Provider{Schema: testSchema()}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		if req.PlannedState.IsNull() {
			rec.add("delete " + req.PriorState.GetAttr("name").AsString())
			return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
		}
		v := req.PlannedState.AsValueMap()
		rec.add("create " + v["name"].AsString())
		v["id"] = cty.StringVal("id-" + v["name"].AsString())
		if !v["size"].IsKnown() {
			v["size"] = cty.NumberIntVal(1)
		}
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	return p
}

// moduleEngine returns an engine for a configuration of several files
// with p as hashicorp/test and the built-in providers.
func moduleEngine(t *testing.T, p providers.Interface, files map[string]string) *Engine {
	t.Helper()
	e := builtinEngine(testConfigInline(t, files))
	e.Providers[addrs.NewDefaultProvider("test")] = func() (providers.Interface, error) { return p, nil }
	return e
}

func TestModuleDependsOn(t *testing.T) {
	t.Parallel()
	const thing = `
variable "name" {}
resource "test_thing" "t" {
  name = var.name
}
output "static" { value = "s" }
`
	rec := &orderRecorder{}
	e := moduleEngine(t, recordingProvider(rec), map[string]string{
		"main.tf": `
resource "test_thing" "first" {
  name = "first"
}
module "m" {
  source     = "./thing"
  name       = "in-module"
  depends_on = [test_thing.first]
}
resource "test_thing" "after" {
  name       = "after"
  depends_on = [module.m]
}
resource "test_thing" "static" {
  name = module.m.static
}
module "later" {
  source     = "./thing"
  name       = "later"
  depends_on = [module.m]
}
`,
		"thing/main.tf": thing,
	})
	_, state := planApply(t, e, nil, PlanOpts{})
	first, inModule, after, later := rec.index(t, "create first"), rec.index(t, "create in-module"), rec.index(t, "create after"), rec.index(t, "create later")
	if !(first < inModule && inModule < after && inModule < later) {
		t.Errorf("wrong apply order %v", rec.order)
	}
	deps := func(addr string) []string {
		var ret []string
		for _, d := range state.Object(mustInstance(t, addr)).Dependencies {
			ret = append(ret, d.String())
		}
		return ret
	}
	for addr, want := range map[string][]string{
		"module.m.test_thing.t":     {"test_thing.first"},
		"test_thing.after":          {"module.m.test_thing.t", "test_thing.first"},
		"module.later.test_thing.t": {"module.m.test_thing.t", "test_thing.first"},
	} {
		if diff := cmp.Diff(want, deps(addr)); diff != "" {
			t.Errorf("%s: wrong dependencies (-want +got)\n%s", addr, diff)
		}
	}

	// Destroying goes the other way round.
	rec.order = nil
	planApply(t, e, state, PlanOpts{Mode: plans.DestroyMode})
	if !(rec.index(t, "delete after") < rec.index(t, "delete in-module") &&
		rec.index(t, "delete later") < rec.index(t, "delete in-module") &&
		rec.index(t, "delete in-module") < rec.index(t, "delete first")) {
		t.Errorf("wrong destroy order %v", rec.order)
	}
}

func TestModuleDependsOnInvalid(t *testing.T) {
	t.Parallel()
	e := builtinEngine(testConfigInline(t, map[string]string{
		"main.tf": `
module "m" {
  source     = "./child"
  depends_on = [module.nosuch]
}
resource "terraform_data" "a" {
  depends_on = [module.m.out]
}
`,
		"child/main.tf": childEcho,
	}))
	_, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), `No module call named "nosuch" is declared in the root module.`) {
		t.Fatalf("depends_on an undeclared module: %v", diags)
	}
}

func TestModuleInstancesRemoved(t *testing.T) {
	t.Parallel()
	files := func(root string) map[string]string {
		return map[string]string{"main.tf": root, "child/main.tf": childEcho, "outer/main.tf": `
variable "n" {}
module "inner" {
  source = "../child"
  count  = var.n
}
`}
	}
	before := `
module "c" {
  source = "./child"
  count  = 3
}
module "e" {
  source   = "./child"
  for_each = toset(["a", "b"])
}
module "gone" {
  source = "./child"
}
module "nested" {
  source = "./outer"
  n      = 2
}
module "mode" {
  source = "./child"
  count  = 1
}
`
	after := `
module "c" {
  source = "./child"
  count  = 1
}
module "e" {
  source   = "./child"
  for_each = toset(["a"])
}
module "nested" {
  source = "./outer"
  n      = 1
}
module "mode" {
  source   = "./child"
  for_each = toset(["0"])
}
`
	_, state := planApply(t, builtinEngine(testConfigInline(t, files(before))), nil, PlanOpts{})
	if n := len(state.AllInstances()); n != 9 {
		t.Fatalf("expected 9 instances, got %v", stateAddrs(state))
	}
	plan, state2 := planApply(t, builtinEngine(testConfigInline(t, files(after))), state, PlanOpts{})
	type change struct {
		Action plans.Action
		Reason plans.ActionReason
	}
	got := map[string]change{}
	for _, c := range plan.Changes.Resources {
		if c.Action != plans.NoOp {
			got[c.Addr.String()] = change{c.Action, c.Reason}
		}
	}
	want := map[string]change{
		"module.c[1].terraform_data.r":                   {plans.Delete, plans.ReasonDeleteBecauseNoModule},
		"module.c[2].terraform_data.r":                   {plans.Delete, plans.ReasonDeleteBecauseNoModule},
		`module.e["b"].terraform_data.r`:                 {plans.Delete, plans.ReasonDeleteBecauseNoModule},
		"module.gone.terraform_data.r":                   {plans.Delete, plans.ReasonDeleteBecauseNoResourceConfig},
		"module.nested.module.inner[1].terraform_data.r": {plans.Delete, plans.ReasonDeleteBecauseNoModule},
		// count to for_each: module.mode[0] is no longer an instance.
		"module.mode[0].terraform_data.r":   {plans.Delete, plans.ReasonDeleteBecauseNoModule},
		`module.mode["0"].terraform_data.r`: {plans.Create, plans.ReasonNone},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong changes (-want +got)\n%s", diff)
	}
	wantState := []string{
		`module.c[0].terraform_data.r`,
		`module.e["a"].terraform_data.r`,
		`module.mode["0"].terraform_data.r`,
		`module.nested.module.inner[0].terraform_data.r`,
	}
	if diff := cmp.Diff(wantState, stateAddrs(state2)); diff != "" {
		t.Errorf("wrong state (-want +got)\n%s", diff)
	}
}

// regionSchema is a provider with a region setting whose test_thing
// objects record the region of the configuration that created them.
func regionSchema() providers.GetProviderSchemaResponse {
	return providers.GetProviderSchemaResponse{
		Provider: providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"region": {Type: cty.String, Optional: true},
		}}},
		ResourceTypes: map[string]providers.Schema{
			"test_thing": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"id":     {Type: cty.String, Computed: true},
				"name":   {Type: cty.String, Required: true},
				"region": {Type: cty.String, Computed: true},
			}}},
		},
	}
}

// regionFactory starts a new fake provider instance for each provider
// configuration; each fills in "region" from its own configuration.
func regionFactory() providers.Factory {
	return func() (providers.Interface, error) {
		p := &providertest.Provider{Schema: regionSchema()}
		var mu sync.Mutex
		region := "(not configured)"
		p.ConfigureProviderFn = func(req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
			mu.Lock()
			defer mu.Unlock()
			region = "(null)"
			if r := req.Config.GetAttr("region"); !r.IsNull() {
				region = r.AsString()
			}
			return providers.ConfigureProviderResponse{}
		}
		p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
			if req.PlannedState.IsNull() {
				return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
			}
			mu.Lock()
			defer mu.Unlock()
			v := req.PlannedState.AsValueMap()
			v["id"] = cty.StringVal("id-" + v["name"].AsString())
			v["region"] = cty.StringVal(region)
			return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
		}
		return p, nil
	}
}

func regionEngine(t *testing.T, files map[string]string) *Engine {
	t.Helper()
	e := builtinEngine(testConfigInline(t, files))
	e.Providers[addrs.NewDefaultProvider("test")] = regionFactory()
	return e
}

func TestModuleProviders(t *testing.T) {
	t.Parallel()
	const thing = `
resource "test_thing" "a" {
  name = "a"
}
`
	files := map[string]string{
		"main.tf": `
provider "test" {
  region = "root"
}
provider "test" {
  alias  = "west"
  region = "west"
}
module "inherit" {
  source = "./thing"
}
module "passed" {
  source = "./thing"
  providers = {
    test = test.west
  }
}
module "aliases" {
  source = "./aliases"
  providers = {
    test.second = test.west
  }
}
module "nested" {
  source = "./outer"
  providers = {
    test = test.west
  }
}
module "proxy" {
  source = "./proxy"
  providers = {
    test = test.west
  }
}
module "own" {
  source = "./own"
}
module "counted" {
  source = "./thing"
  count  = 2
  providers = {
    test = test.west
  }
}
`,
		"thing/main.tf": thing,
		"aliases/main.tf": `
terraform {
  required_providers {
    test = {
      source                = "hashicorp/test"
      configuration_aliases = [test.second]
    }
  }
}
resource "test_thing" "a" {
  provider = test.second
  name     = "a"
}
resource "test_thing" "b" {
  name = "b"
}
`,
		"outer/main.tf": `
module "inner" {
  source = "../thing"
}
`,
		// An empty provider block is a proxy for the configuration its
		// caller passes in.
		"proxy/main.tf": `
provider "test" {}
` + thing,
		"own/main.tf": `
provider "test" {
  region = "own"
}
` + thing,
	}
	e := regionEngine(t, files)
	plan, state := planApply(t, e, nil, PlanOpts{})
	const (
		root = `provider["registry.terraform.io/hashicorp/test"]`
		west = `provider["registry.terraform.io/hashicorp/test"].west`
		own  = `module.own.provider["registry.terraform.io/hashicorp/test"]`
	)
	want := map[string][2]string{ // address: provider, region
		"module.inherit.test_thing.a":             {root, `"root"`},
		"module.passed.test_thing.a":              {west, `"west"`},
		"module.aliases.test_thing.a":             {west, `"west"`},
		"module.aliases.test_thing.b":             {root, `"root"`},
		"module.nested.module.inner.test_thing.a": {west, `"west"`},
		"module.proxy.test_thing.a":               {west, `"west"`},
		"module.own.test_thing.a":                 {own, `"own"`},
		"module.counted[0].test_thing.a":          {west, `"west"`},
		"module.counted[1].test_thing.a":          {west, `"west"`},
	}
	got := map[string][2]string{}
	for _, c := range plan.Changes.Resources {
		addr := c.Addr.String()
		got[addr] = [2]string{c.ProviderAddr.String(), objectAttr(t, state, addr, "region")}
		if r := state.Resource(c.Addr.ContainingResource()); r.ProviderConfig.String() != c.ProviderAddr.String() {
			t.Errorf("%s: state records provider %s, plan %s", addr, r.ProviderConfig, c.ProviderAddr)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong providers (-want +got)\n%s", diff)
	}

	// Removing the module whose provider configuration was its own leaves
	// no configuration to delete its objects with: an error, as in
	// Terraform, rather than deleting them with an unconfigured provider.
	delete(files, "own/main.tf")
	files["main.tf"] = strings.Replace(files["main.tf"], "module \"own\" {\n  source = \"./own\"\n}\n", "", 1)
	e2 := regionEngine(t, files)
	_, diags := e2.Plan(context.Background(), state, PlanOpts{})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Provider configuration not present") ||
		!strings.Contains(diags.Error(), own) {
		t.Fatalf("removing a module with its own provider configuration: %v", diags)
	}
	// Removing an aliased configuration still in use is the same error.
	files["main.tf"] = `
provider "test" {
  region = "root"
}
`
	_, diags = regionEngine(t, files).Plan(context.Background(), state, PlanOpts{})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), west) {
		t.Fatalf("removing an aliased configuration in use: %v", diags)
	}
}

func TestModuleProviderNotPresent(t *testing.T) {
	t.Parallel()
	const aliases = `
terraform {
  required_providers {
    test = {
      source                = "hashicorp/test"
      configuration_aliases = [test.second]
    }
  }
}
resource "test_thing" "a" {
  provider = test.second
  name     = "a"
}
resource "test_thing" "b" {
  provider = test.second
  name     = "b"
}
`
	tests := map[string]struct {
		root string
		want []string
	}{
		"configuration alias not passed": {
			// Terraform reports "Missing required provider configuration"
			// at the module block when loading the configuration, even
			// when no resource uses the alias.
			root: `
module "m" {
  source = "./aliases"
}
`,
			want: []string{
				"Provider configuration not present @ aliases/main.tf:11",
				"Provider configuration not present @ aliases/main.tf:15",
			},
		},
		"passed configuration not declared": {
			// Terraform says only "missing provider
			// provider[\"registry.terraform.io/hashicorp/test\"].west".
			root: `
module "m" {
  source = "./aliases"
  providers = {
    test.second = test.west
  }
}
`,
			want: []string{"Provider configuration not present @ main.tf:5"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := regionEngine(t, map[string]string{"main.tf": tc.root, "aliases/main.tf": aliases})
			_, diags := e.Plan(context.Background(), nil, PlanOpts{})
			assertEngineDiags(t, diags, tc.want)
			assertEngineDiags(t, e.Validate(context.Background()), tc.want)
		})
	}
}

func TestModuleValidate(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		root, child string
		want        []string
	}{
		"valid with count and for_each": {
			// validate does not know the instances: module.x[0] and
			// module.y["k"] must still be accepted.
			root: `
variable "n" { type = number }
module "c" {
  source = "./child"
  count  = var.n
  in     = "i${count.index}"
}
module "e" {
  source   = "./child"
  for_each = toset(["a"])
  in       = each.key
}
module "one" {
  source = "./child"
}
resource "terraform_data" "r" {
  input = [module.c[0].out, module.e["a"].out, module.one.out, [for m in module.c : m.in]]
}
output "o" { value = module.c[*].out }
`,
		},
		"unknown output of a counted module": {
			root: `
module "c" {
  source = "./child"
  count  = 2
}
output "o" { value = module.c[0].nosuch }
`,
			want: []string{"Unsupported attribute @ main.tf:6"},
		},
		"unknown output": {
			root: `
module "m" {
  source = "./child"
}
output "o" { value = module.m.nosuch }
`,
			want: []string{"Unsupported attribute @ main.tf:5"},
		},
		"whole counted module used as an object": {
			root: `
module "c" {
  source = "./child"
  count  = 2
}
output "o" { value = module.c.out }
`,
			want: []string{"Unsupported attribute @ main.tf:6"},
		},
		"undeclared module": {
			root: `output "o" { value = module.nosuch.out }`,
			want: []string{"Reference to undeclared module @ main.tf:1"},
		},
		"error inside the child": {
			root: `
module "m" {
  source = "./child"
}
`,
			child: `
resource "terraform_data" "r" {
  input = var.nosuch
}
`,
			want: []string{"Reference to undeclared input variable @ child/main.tf:3"},
		},
		"wrong input type": {
			root: `
module "m" {
  source = "./child"
  in     = { a = 1 }
}
`,
			want: []string{"Invalid value for input variable @ main.tf:4"},
		},
		"cycle through a module": {
			root: `
module "m" {
  source = "./child"
  in     = terraform_data.root.output
}
resource "terraform_data" "root" {
  input = module.m.out
}
`,
			want: []string{"Cycle: module.m.output.out, module.m.terraform_data.r, module.m.var.in, terraform_data.root"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			child := tc.child
			if child == "" {
				child = childEcho
			}
			e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": tc.root, "child/main.tf": child}))
			assertEngineDiags(t, e.Validate(context.Background()), tc.want)
		})
	}
}

func TestModuleCycle(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		root, child string
		want        string
	}{
		"output to root resource to input": {
			root: `
module "m" {
  source = "./child"
  in     = terraform_data.root.output
}
resource "terraform_data" "root" {
  input = module.m.out
}
`,
			want: "Cycle: module.m.output.out, module.m.terraform_data.r, module.m.var.in, terraform_data.root",
		},
		"two modules feeding each other": {
			root: `
module "a" {
  source = "./child"
  in     = module.b.out
}
module "b" {
  source = "./child"
  in     = module.a.out
}
`,
			want: "Cycle: module.a.output.out, module.a.terraform_data.r, module.a.var.in, module.b.output.out, module.b.terraform_data.r, module.b.var.in",
		},
		"count of a module from its own output": {
			root: `
module "m" {
  source = "./child"
  count  = length(module.m)
}
`,
			want: "Cycle",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": tc.root, "child/main.tf": childEcho}))
			_, diags := e.Plan(context.Background(), nil, PlanOpts{})
			if !diags.HasErrors() || !strings.HasPrefix(diags[0].Summary, tc.want) {
				t.Fatalf("want %q, got %v", tc.want, diags)
			}
		})
	}

	// Without a real cycle, a module output that does not depend on the
	// module's inputs can feed a resource that feeds those inputs.
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
module "m" {
  source = "./child"
  in     = terraform_data.root.output
}
resource "terraform_data" "root" {
  input = module.m.path
}
`, "child/main.tf": childEcho}))
	planApply(t, e, nil, PlanOpts{})
}

func TestModuleDestroy(t *testing.T) {
	t.Parallel()
	rec := &orderRecorder{}
	e := moduleEngine(t, recordingProvider(rec), map[string]string{
		"main.tf": `
resource "test_thing" "base" {
  name = "base"
}
module "m" {
  source = "./thing"
  count  = 2
  name   = "m${count.index}-${test_thing.base.id}"
}
resource "test_thing" "top" {
  name = "top-${join(",", module.m[*].id)}"
}
output "ids" { value = module.m[*].id }
`,
		"thing/main.tf": `
variable "name" {}
resource "test_thing" "t" {
  name = var.name
}
module "deeper" {
  source = "../deeper"
  name   = "deep-${test_thing.t.id}"
}
output "id" { value = module.deeper.id }
`,
		"deeper/main.tf": `
variable "name" {}
resource "test_thing" "d" {
  name = var.name
}
output "id" { value = test_thing.d.id }
`,
	})
	_, state := planApply(t, e, nil, PlanOpts{})
	if n := len(state.AllInstances()); n != 6 {
		t.Fatalf("expected 6 instances, got %v", stateAddrs(state))
	}
	rec.order = nil
	plan, state2 := planApply(t, e, state, PlanOpts{Mode: plans.DestroyMode})
	for _, c := range plan.Changes.Resources {
		if c.Action != plans.Delete {
			t.Errorf("%s: %s, want Delete", c.Addr, c.Action)
		}
	}
	if len(plan.Changes.Resources) != 6 {
		t.Errorf("expected 6 deletions, got %v", actions(plan))
	}
	if !state2.Empty() {
		t.Fatalf("state not empty after destroy: %v %v", stateAddrs(state2), state2.Outputs)
	}
	// Dependents go first: top, then each module's deeper object, then
	// its own, then base.
	rec.mu.Lock()
	names := append([]string(nil), rec.order...)
	rec.mu.Unlock()
	idx := func(prefix string) []int {
		var ret []int
		for i, n := range names {
			if strings.HasPrefix(n, "delete "+prefix) {
				ret = append(ret, i)
			}
		}
		return ret
	}
	top, deep, m, base := idx("top"), idx("deep"), append(idx("m0"), idx("m1")...), idx("base")
	if len(top) != 1 || len(deep) != 2 || len(m) != 2 || len(base) != 1 {
		t.Fatalf("unexpected deletions %v", names)
	}
	for _, d := range deep {
		if d < top[0] {
			t.Errorf("deeper deleted before top: %v", names)
		}
	}
	for _, x := range m {
		if x < deep[0] || x < deep[1] || x > base[0] {
			t.Errorf("wrong order %v", names)
		}
	}
}

func TestModuleDependsOnDefersDataRead(t *testing.T) {
	t.Parallel()
	schema := testSchema()
	schema.DataSources = map[string]providers.Schema{
		"test_lookup": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"key":    {Type: cty.String, Required: true},
			"result": {Type: cty.String, Computed: true},
		}}},
	}
	p := &providertest.Provider{Schema: schema}
	p.ReadDataSourceFn = func(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
		v := req.Config.AsValueMap()
		v["result"] = cty.StringVal("looked-up-" + v["key"].AsString())
		return providers.ReadDataSourceResponse{State: cty.ObjectVal(v)}
	}
	e := moduleEngine(t, p, map[string]string{
		"main.tf": `
resource "test_thing" "first" {
  name = "first"
}
module "after" {
  source     = "./lookup"
  depends_on = [test_thing.first]
}
module "free" {
  source = "./lookup"
}
output "after" { value = module.after.result }
`,
		"lookup/main.tf": `
data "test_lookup" "l" {
  key = "k"
}
output "result" { value = data.test_lookup.l.result }
`,
	})
	plan, state := planApply(t, e, nil, PlanOpts{})
	// The module's depends_on applies to the data source inside: it is
	// read during apply, after test_thing.first is created. The module
	// without depends_on reads it during the plan.
	c := plan.Changes.Resource(mustInstance(t, "module.after.data.test_lookup.l"))
	if c == nil || c.Action != plans.Read || c.Reason != plans.ReasonReadBecauseDependencyPending {
		t.Fatalf("module.after's data source: %+v", c)
	}
	if c := plan.Changes.Resource(mustInstance(t, "module.free.data.test_lookup.l")); c != nil && c.Action != plans.NoOp {
		t.Fatalf("module.free's data source planned %s", c.Action)
	}
	if got := outputString(t, state, "after"); got != "looked-up-k" {
		t.Fatalf("after = %q", got)
	}
	// Once nothing is pending, the data source is read during the plan.
	plan2, diags := e.Plan(context.Background(), state, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if plan2.Changes.HasChanges() {
		t.Fatalf("second plan has changes: %v", actions(plan2))
	}
}
