package lang

import (
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// diag is the part of a diagnostic the tests compare. Every test source
// is a single file, so the subject range omits the filename.
type diag struct {
	Severity string
	Summary  string
	Subject  string
}

func errDiag(summary, subject string) diag { return diag{"error", summary, subject} }

func fmtRange(rng *hcl.Range) string {
	if rng == nil {
		return ""
	}
	return fmt.Sprintf("%d,%d-%d,%d", rng.Start.Line, rng.Start.Column, rng.End.Line, rng.End.Column)
}

func summarizeDiags(diags hcl.Diagnostics) []diag {
	var ret []diag
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		ret = append(ret, diag{sev, d.Summary, fmtRange(d.Subject)})
	}
	return ret
}

func assertDiags(t *testing.T, diags hcl.Diagnostics, want []diag) {
	t.Helper()
	if diff := cmp.Diff(want, summarizeDiags(diags)); diff != "" {
		var details string
		for _, d := range diags {
			details += fmt.Sprintf("  %s: %s; %s\n", fmtRange(d.Subject), d.Summary, d.Detail)
		}
		t.Errorf("wrong diagnostics (-want +got)\n%s\nall diagnostics:\n%s", diff, details)
	}
}

// ctyOpts compares cty values exactly, marks included.
var ctyOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
	cmp.Comparer(func(a, b cty.Value) bool {
		if a == cty.NilVal || b == cty.NilVal {
			return a == cty.NilVal && b == cty.NilVal
		}
		return a.RawEquals(b)
	}),
}

func parseExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parsing %q: %s", src, diags.Error())
	}
	return expr
}

func parseBody(t *testing.T, src string) hcl.Body {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parsing body: %s", diags.Error())
	}
	return f.Body
}

func parseJSONBody(t *testing.T, src string) hcl.Body {
	t.Helper()
	f, diags := json.Parse([]byte(src), "test.tf.json")
	if diags.HasErrors() {
		t.Fatalf("parsing JSON body: %s", diags.Error())
	}
	return f.Body
}

// fakeData is a Data with fixed values. Each lookup is recorded. Things
// that are not in its maps are undeclared.
type fakeData struct {
	vars      map[string]cty.Value
	locals    map[string]cty.Value
	resources map[string]cty.Value // by addrs.Resource.String()
	modules   map[string]cty.Value
	workspace string
	moduleDir string

	mu    sync.Mutex
	calls []string
}

var _ Data = (*fakeData)(nil)

func (d *fakeData) record(what string) {
	d.mu.Lock()
	d.calls = append(d.calls, what)
	d.mu.Unlock()
}

func (d *fakeData) lookups() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	ret := append([]string(nil), d.calls...)
	sort.Strings(ret)
	return ret
}

func undeclared(what, name string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Reference to undeclared " + what,
		Detail:   fmt.Sprintf("No %s named %q is declared.", what, name),
		Subject:  rng.Ptr(),
	}}
}

func (d *fakeData) GetInputVariable(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	d.record("var." + name)
	if v, ok := d.vars[name]; ok {
		return v, nil
	}
	return cty.DynamicVal, undeclared("input variable", name, rng)
}

func (d *fakeData) GetLocalValue(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	d.record("local." + name)
	if v, ok := d.locals[name]; ok {
		return v, nil
	}
	return cty.DynamicVal, undeclared("local value", name, rng)
}

func (d *fakeData) GetResource(ref ResourceRef, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	d.record(ref.String())
	if v, ok := d.resources[ref.Resource.String()]; ok {
		return v, nil
	}
	what := "resource"
	if ref.Resource.Mode == addrs.DataResourceMode {
		what = "data resource"
	}
	return cty.DynamicVal, undeclared(what, ref.Resource.String(), rng)
}

func (d *fakeData) GetPathAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	d.record("path." + name)
	switch name {
	case "module", "root":
		return cty.StringVal(d.moduleDir), nil
	case "cwd":
		return cty.StringVal("/cwd"), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid "path" attribute`,
		Subject:  rng.Ptr(),
	}}
}

func (d *fakeData) GetTerraformAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	d.record("terraform." + name)
	if name == "workspace" {
		return cty.StringVal(d.workspace), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid "terraform" attribute`,
		Subject:  rng.Ptr(),
	}}
}

func (d *fakeData) GetModuleCall(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	d.record("module." + name)
	if v, ok := d.modules[name]; ok {
		return v, nil
	}
	return cty.DynamicVal, undeclared("module", name, rng)
}

// newFakeData returns a fakeData holding a fixed set of values of every
// kind and shape the tests use.
func newFakeData() *fakeData {
	str := cty.StringVal
	num := cty.NumberIntVal
	obj := func(attrs map[string]cty.Value) cty.Value { return cty.ObjectVal(attrs) }
	instance := func(id string) cty.Value {
		return obj(map[string]cty.Value{"id": str(id), "output": str("out-" + id)})
	}
	return &fakeData{
		vars: map[string]cty.Value{
			"name":   str("web"),
			"num":    num(3),
			"numstr": str("42"),
			"word":   str("abc"),
			"zones":  cty.ListVal([]cty.Value{str("a"), str("b"), str("c")}),
			"tags":   cty.MapVal(map[string]cty.Value{"env": str("dev"), "team": str("core")}),
			"obj":    obj(map[string]cty.Value{"a": num(1), "b": cty.ListVal([]cty.Value{str("x")})}),
			"secret": str("hunter2").Mark("sensitive"),
			"secret_list": cty.ListVal([]cty.Value{
				str("s1"), str("s2"),
			}).Mark("sensitive"),
			"unknown":  cty.UnknownVal(cty.String),
			"unknowns": cty.UnknownVal(cty.List(cty.String)),
			"nullstr":  cty.NullVal(cty.String),
			"settings": cty.ListVal([]cty.Value{obj(map[string]cty.Value{"name": str("a"), "value": str("1")}), obj(map[string]cty.Value{"name": str("b"), "value": str("2")})}),
			"rules": cty.MapVal(map[string]cty.Value{
				"ssh":   obj(map[string]cty.Value{"port": num(22)}),
				"https": obj(map[string]cty.Value{"port": num(443)}),
			}),
		},
		locals: map[string]cty.Value{
			"prefix": str("app"),
			"count":  num(2),
		},
		resources: map[string]cty.Value{
			// No count or for_each: an object.
			"terraform_data.single": instance("s"),
			// count: a tuple of objects.
			"terraform_data.counted": cty.TupleVal([]cty.Value{instance("c0"), instance("c1")}),
			// for_each: an object keyed by instance key.
			"terraform_data.keyed": obj(map[string]cty.Value{"x": instance("kx"), "y": instance("ky")}),
			// for_each, as a map.
			"terraform_data.mapped": cty.MapVal(map[string]cty.Value{"m": instance("mm")}),
			// Not known yet.
			"terraform_data.pending": cty.DynamicVal,
			// A data resource sharing the managed one's type.
			"data.terraform_data.single": instance("d"),
			"data.terraform_remote_state.net": obj(map[string]cty.Value{
				"outputs": obj(map[string]cty.Value{"vpc_id": str("vpc-1")}),
			}),
		},
		modules: map[string]cty.Value{
			"net": obj(map[string]cty.Value{"vpc_id": str("vpc-2")}),
		},
		workspace: "default",
		moduleDir: "/mod",
	}
}
