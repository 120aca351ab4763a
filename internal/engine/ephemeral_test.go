package engine

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// ephemeralSchema adds to testSchema an ephemeral "test_secret" whose
// "value" the fake computes, and a write-only "password" to test_thing.
func ephemeralSchema() providers.GetProviderSchemaResponse {
	s := testSchema()
	thing := *s.ResourceTypes["test_thing"].Block
	attrs := map[string]*configschema.Attribute{}
	for k, v := range thing.Attributes {
		attrs[k] = v
	}
	attrs["password"] = &configschema.Attribute{Type: cty.String, Optional: true, WriteOnly: true}
	thing.Attributes = attrs
	s.ResourceTypes["test_thing"] = providers.Schema{Block: &thing}
	s.EphemeralResourceTypes = map[string]providers.Schema{
		"test_secret": {Block: &configschema.Block{
			Attributes: map[string]*configschema.Attribute{
				"name":  {Type: cty.String, Required: true},
				"value": {Type: cty.String, Computed: true, Sensitive: true},
			},
		}},
	}
	return s
}

func ephemeralProvider() *providertest.Provider {
	p := &providertest.Provider{Schema: ephemeralSchema()}
	p.OpenEphemeralFn = func(req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
		name := req.Config.GetAttr("name").AsString()
		return providers.OpenEphemeralResourceResponse{
			Result:  cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "value": cty.StringVal("secret-" + name)}),
			Private: []byte(name),
		}
	}
	return p
}

func countCalls(p *providertest.Provider, prefix string) int {
	n := 0
	for _, c := range p.Calls() {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

func TestEphemeralOpenedAndClosedInPlanAndApply(t *testing.T) {
	p := ephemeralProvider()
	var closed []string
	p.CloseEphemeralFn = func(req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
		closed = append(closed, string(req.Private))
		return providers.CloseEphemeralResourceResponse{}
	}
	e := testEngine(t, p, `
ephemeral "test_secret" "s" {
  count = 2
  name  = "s${count.index}"
}
resource "test_thing" "a" {
  name     = "a"
  password = ephemeral.test_secret.s[1].value
}
`)
	plan, state := planApply(t, e, nil, PlanOpts{})
	if got := countCalls(p, "OpenEphemeralResource"); got != 4 {
		t.Fatalf("want 4 opens (2 in plan, 2 in apply), got %d: %v", got, p.Calls())
	}
	if len(closed) != 4 {
		t.Fatalf("want 4 closes, got %v", closed)
	}
	for _, c := range plan.Changes.Resources {
		if strings.Contains(c.Addr.String(), "ephemeral") {
			t.Fatalf("ephemeral resource in plan: %s", c.Addr)
		}
	}
	for _, r := range state.Resources {
		if strings.Contains(r.Addr.String(), "ephemeral") {
			t.Fatalf("ephemeral resource in state: %s", r.Addr)
		}
	}
	if got := objectAttr(t, state, "test_thing.a", "password"); got != "null" {
		t.Fatalf("write-only attribute stored: %s", got)
	}
	// As in Terraform, the state records the dependency.
	if deps := state.Object(mustInstance(t, "test_thing.a")).Dependencies; len(deps) != 1 || deps[0].String() != "ephemeral.test_secret.s" {
		t.Fatalf("dependencies %v, want [ephemeral.test_secret.s]", deps)
	}
}

func TestEphemeralValueNotAllowed(t *testing.T) {
	tests := map[string]struct {
		src  string
		want string
	}{
		"resource argument": {
			src:  `resource "test_thing" "a" { name = ephemeral.test_secret.s.value }`,
			want: `Invalid use of ephemeral value; Ephemeral values are not valid for "name"`,
		},
		"root output": {
			src:  `output "o" { value = ephemeral.test_secret.s.value }`,
			want: "Ephemeral value not allowed; This output value is not declared as returning an ephemeral value",
		},
		"count": {
			src: `resource "test_thing" "a" { 
  count = length(ephemeral.test_secret.s.name)
  name = "a"
}`,
			want: `Invalid count argument; The given "count" is derived from an ephemeral value`,
		},
		"terraform.applying in output": {
			src:  `output "o" { value = terraform.applying }`,
			want: "Ephemeral value not allowed",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := ephemeralProvider()
			e := testEngine(t, p, `ephemeral "test_secret" "s" { name = "x" }
`+tc.src)
			_, diags := e.Plan(context.Background(), nil, PlanOpts{})
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.want) {
				t.Fatalf("want error %q, got %v", tc.want, diags)
			}
			if opens, closes := countCalls(p, "OpenEphemeralResource"), countCalls(p, "CloseEphemeralResource"); opens != closes {
				t.Fatalf("%d opens but %d closes", opens, closes)
			}
		})
	}
}

func TestEphemeralVariablesAndOutputs(t *testing.T) {
	p := ephemeralProvider()
	cfg := testConfigInline(t, map[string]string{
		"main.tf": `
variable "token" {
  ephemeral = true
  default   = "t"
}
ephemeral "test_secret" "s" { name = var.token }
module "m" {
  source = "./m"
  in     = ephemeral.test_secret.s.value
}
resource "test_thing" "a" {
  name     = ephemeralasnull(module.m.out) == null ? "nulled" : "kept"
  password = module.m.out
}
`,
		"m/main.tf": `
variable "in" { ephemeral = true }
output "out" {
  value     = var.in
  ephemeral = true
}
`,
	})
	e := testEngine(t, p, "")
	e.Config = cfg
	_, state := planApply(t, e, nil, PlanOpts{})
	if got := objectAttr(t, state, "test_thing.a", "name"); got != `"nulled"` {
		t.Fatalf("ephemeralasnull did not null the ephemeral value: %s", got)
	}
}

func TestEphemeralUnknownConfigNotOpenedDuringPlan(t *testing.T) {
	p := ephemeralProvider()
	e := testEngine(t, p, `
resource "test_thing" "a" { name = "a" }
ephemeral "test_secret" "s" { name = test_thing.a.id }
resource "test_thing" "b" {
  name     = "b"
  password = ephemeral.test_secret.s.value
}
`)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := countCalls(p, "OpenEphemeralResource"); got != 0 {
		t.Fatalf("opened with an unknown configuration: %v", p.Calls())
	}
	if _, diags := e.Apply(context.Background(), plan); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := countCalls(p, "OpenEphemeralResource"); got != 1 {
		t.Fatalf("want one open during apply, got %v", p.Calls())
	}
}

// renewingProvider is the ephemeral test provider whose secrets ask to
// be renewed every interval, and whose applies call during first.
func renewingProvider(interval time.Duration, during func()) *providertest.Provider {
	p := ephemeralProvider()
	open := p.OpenEphemeralFn
	p.OpenEphemeralFn = func(req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
		resp := open(req)
		resp.RenewAt = time.Now().Add(interval)
		return resp
	}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		during()
		v := req.PlannedState.AsValueMap()
		v["id"] = cty.StringVal("x")
		if !v["size"].IsKnown() {
			v["size"] = cty.NumberIntVal(1)
		}
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	return p
}

// renewedSecretConfig applies a resource that reads an ephemeral secret.
const renewedSecretConfig = `
ephemeral "test_secret" "s" { name = "x" }
resource "test_thing" "a" {
  name     = "a"
  password = ephemeral.test_secret.s.value
}
`

func TestEphemeralRenewedUntilClosed(t *testing.T) {
	p := renewingProvider(20*time.Millisecond, func() { time.Sleep(150 * time.Millisecond) }) // a long apply
	var renewals atomic.Int32
	p.RenewEphemeralFn = func(req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
		renewals.Add(1)
		return providers.RenewEphemeralResourceResponse{Private: req.Private, RenewAt: time.Now().Add(20 * time.Millisecond)}
	}
	e := testEngine(t, p, renewedSecretConfig)
	planApply(t, e, nil, PlanOpts{})
	got := renewals.Load()
	if got < 2 {
		t.Fatalf("want the secret renewed during the long apply, got %d renewals", got)
	}
	time.Sleep(100 * time.Millisecond)
	if after := renewals.Load(); after != got {
		t.Fatalf("renewed after close: %d then %d", got, after)
	}
}

// TestEphemeralCloseWaitsForRenewal: a renewal in flight when the walk
// ends is waited for; the close follows it and carries its private data.
// The plan lasts longer than one renewal interval too, so a renewal
// during the plan does not stand in for the apply's.
func TestEphemeralCloseWaitsForRenewal(t *testing.T) {
	started := make(chan struct{})
	p := renewingProvider(10*time.Millisecond, func() { <-started }) // the apply ends once the renewal has begun
	p.PlanResourceChangeFn = func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
		time.Sleep(50 * time.Millisecond) // a slow plan: the secret is renewed during it
		v := req.ProposedNewState.AsValueMap()
		for name, a := range p.Schema.ResourceTypes["test_thing"].Block.Attributes {
			if a.Computed && v[name].IsNull() {
				v[name] = cty.UnknownVal(a.ImpliedType())
			}
		}
		return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(v)}
	}
	var applying, renewing atomic.Bool
	var once sync.Once
	p.RenewEphemeralFn = func(req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
		if !applying.Load() {
			return providers.RenewEphemeralResourceResponse{Private: []byte("renewed in plan")}
		}
		renewing.Store(true)
		once.Do(func() { close(started) })
		time.Sleep(100 * time.Millisecond) // still renewing when the apply ends
		renewing.Store(false)
		return providers.RenewEphemeralResourceResponse{Private: []byte("renewed")}
	}
	var closedDuringRenewal atomic.Bool
	var closedWith atomic.Value
	p.CloseEphemeralFn = func(req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
		closedDuringRenewal.Store(renewing.Load())
		closedWith.Store(string(req.Private))
		return providers.CloseEphemeralResourceResponse{}
	}
	e := testEngine(t, p, renewedSecretConfig)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got, _ := closedWith.Load().(string); got != "renewed in plan" {
		t.Fatalf("the plan's secret closed with private data %q, want its renewal's", got)
	}
	applying.Store(true)
	if _, diags := e.Apply(context.Background(), plan); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if closedDuringRenewal.Load() {
		t.Fatal("closed while a renewal was in flight")
	}
	if got, _ := closedWith.Load().(string); got != "renewed" {
		t.Fatalf("the apply's secret closed with private data %q, want the renewal's", got)
	}
}

func TestEphemeralProvisionerOutputSuppressed(t *testing.T) {
	p := ephemeralProvider()
	e := testEngine(t, p, `
ephemeral "test_secret" "s" { name = "x" }
resource "test_thing" "a" {
  name = "a"
  provisioner "local-exec" {
    command = "echo ${nonsensitive(ephemeral.test_secret.s.value)}; echo two"
  }
}
`)
	h := &provisionHook{}
	e.Hooks = []hooks.Hook{h}
	planApply(t, e, nil, PlanOpts{})
	var outs []string
	for _, ev := range h.of("test_thing.a") {
		if strings.HasPrefix(ev, "out ") {
			outs = append(outs, ev)
			if !strings.HasSuffix(ev, "(output suppressed due to ephemeral value in config)") {
				t.Errorf("provisioner output not suppressed: %q", ev)
			}
		}
	}
	if len(outs) != 3 {
		t.Fatalf("want 3 suppressed lines (the command and its two lines), got %v", outs)
	}
}

func TestEphemeralDependencyInStateReadBack(t *testing.T) {
	p := ephemeralProvider()
	e := testEngine(t, p, `
ephemeral "test_secret" "s" { name = "x" }
resource "test_thing" "a" {
  name     = "a"
  password = ephemeral.test_secret.s.value
}
`)
	_, state := planApply(t, e, nil, PlanOpts{})
	raw, err := statefile.Write(state)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"ephemeral.test_secret.s"`) {
		t.Fatalf("dependency not written:\n%s", raw)
	}
	if _, err := statefile.Read(raw); err != nil {
		t.Fatalf("a state with an ephemeral dependency cannot be read back: %v", err)
	}
}

func TestEphemeralVariableSetForPlanAndApply(t *testing.T) {
	p := ephemeralProvider()
	e := testEngine(t, p, `
variable "token" { ephemeral = true }
resource "test_thing" "a" {
  name     = "a"
  password = var.token
}
`)
	plan, _ := planApply(t, e, nil, PlanOpts{Variables: map[string]InputValue{"token": {Value: cty.StringVal("t")}}})
	if len(plan.ApplyTimeVariables) != 1 || plan.ApplyTimeVariables[0] != "token" {
		t.Fatalf("apply-time variables %v, want [token]", plan.ApplyTimeVariables)
	}
}

func TestTerraformApplying(t *testing.T) {
	p := ephemeralProvider()
	var planned, applied string
	p.PlanResourceChangeFn = func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
		if planned == "" { // the plan's, not apply's final plan
			planned = req.Config.GetAttr("password").AsString()
		}
		v := req.ProposedNewState.AsValueMap()
		v["id"] = cty.UnknownVal(cty.String)
		v["size"] = cty.UnknownVal(cty.Number)
		v["password"] = cty.NullVal(cty.String)
		return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(v)}
	}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		applied = req.Config.GetAttr("password").AsString()
		v := req.PlannedState.AsValueMap()
		v["id"] = cty.StringVal("x")
		v["size"] = cty.NumberIntVal(1)
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	e := testEngine(t, p, `
resource "test_thing" "a" {
  name     = "a"
  password = terraform.applying ? "applying" : "planning"
}
`)
	planApply(t, e, nil, PlanOpts{})
	if planned != "planning" || applied != "applying" {
		t.Fatalf("terraform.applying: plan saw %q, apply saw %q", planned, applied)
	}
}
