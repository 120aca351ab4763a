package engine

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
)

// startedProviders is a factory of fake providers, a new one per call as
// plugin processes are, that records each one it started.
type startedProviders struct {
	mu      sync.Mutex
	started []*providertest.Provider
	// configure, when set, answers ConfigureProvider.
	configure func(providers.ConfigureProviderRequest) providers.ConfigureProviderResponse
}

func (sp *startedProviders) factory() (providers.Interface, error) {
	schema := ephemeralSchema()
	schema.Provider = providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"region": {Type: cty.String, Optional: true},
	}}}
	p := &providertest.Provider{Schema: schema, ConfigureProviderFn: sp.configure}
	p.OpenEphemeralFn = ephemeralProvider().OpenEphemeralFn
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		if req.PlannedState.IsNull() {
			return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
		}
		v := req.PlannedState.AsValueMap()
		v["id"] = cty.StringVal("id-" + v["name"].AsString())
		v["size"] = cty.NumberIntVal(1)
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	sp.mu.Lock()
	sp.started = append(sp.started, p)
	sp.mu.Unlock()
	return p, nil
}

// count returns how many providers were started and how many of them
// were closed.
func (sp *startedProviders) count() (started, closed int) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for _, p := range sp.started {
		if p.Closed() {
			closed++
		}
	}
	return len(sp.started), closed
}

// configures returns how many times each started provider was configured.
func (sp *startedProviders) configures() []int {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	var n []int
	for _, p := range sp.started {
		c := 0
		for _, call := range p.Calls() {
			if call == "ConfigureProvider" {
				c++
			}
		}
		n = append(n, c)
	}
	return n
}

func poolEngine(t *testing.T, sp *startedProviders, src string, keep bool) *Engine {
	t.Helper()
	return &Engine{
		Config:        testConfigInline(t, map[string]string{"main.tf": src}),
		Providers:     map[addrs.Provider]providers.Factory{addrs.NewDefaultProvider("test"): sp.factory},
		Version:       "test",
		KeepProviders: keep,
	}
}

// planApplyDiags plans then applies, as the apply command does, and
// returns the diagnostics of each.
func planApplyDiags(t *testing.T, e *Engine) (plan, apply hcl.Diagnostics) {
	t.Helper()
	p, pdiags := e.Plan(context.Background(), nil, PlanOpts{})
	if pdiags.HasErrors() {
		t.Fatal(pdiags.Error())
	}
	_, adiags := e.Apply(context.Background(), p)
	if adiags.HasErrors() {
		t.Fatal(adiags.Error())
	}
	return pdiags, adiags
}

func TestKeepProviders(t *testing.T) {
	const static = `
provider "test" { region = "eu" }
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
`
	// The provider's configuration is known only once test_thing.a is
	// created: the apply must configure a new instance.
	const fromResource = `
resource "test_thing" "a" { name = "a" }
provider "test" {
  alias  = "late"
  region = test_thing.a.id
}
resource "test_thing" "b" {
  provider = test.late
  name     = "b"
}
`
	// The same value, from an ephemeral resource opened again: what it
	// gave may have ended with the plan's walk.
	const fromEphemeral = `
ephemeral "test_secret" "s" { name = "s" }
provider "test" {
  alias  = "eph"
  region = ephemeral.test_secret.s.value
}
resource "test_thing" "b" {
  provider = test.eph
  name     = "b"
}
`
	cases := []struct {
		name       string
		src        string
		keep       bool
		started    int
		configures []int
	}{
		// Validation's instance is never configured.
		{"each walk starts its own", static, false, 3, []int{0, 1, 1}},
		{"the apply reuses the plan's instance", static, true, 1, []int{1}},
		{"a configuration that changed starts another", fromResource, true, 3, []int{1, 1, 1}},
		{"a configuration with ephemeral values is not kept", fromEphemeral, true, 3, []int{1, 1, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sp := &startedProviders{}
			e := poolEngine(t, sp, tc.src, tc.keep)
			planApplyDiags(t, e)
			started, closed := sp.count()
			if started != tc.started {
				t.Errorf("started %d providers, want %d", started, tc.started)
			}
			if got := sp.configures(); !equalInts(got, tc.configures) {
				t.Errorf("configured %v times, want %v", got, tc.configures)
			}
			open := 0
			if tc.keep {
				// The default configuration's instance (and the
				// late one's) wait for the next operation.
				open = len(e.pool.idle)
			}
			if closed != started-open {
				t.Errorf("%d of %d providers closed after the apply, want %d", closed, started, started-open)
			}
			e.CloseProviders(context.Background())
			if _, closed := sp.count(); closed != started {
				t.Errorf("%d of %d providers closed after CloseProviders", closed, started)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A reused instance is not configured again, but the apply reports the
// warnings its configuration gave, as a fresh one would give them.
func TestKeepProvidersConfigureWarnings(t *testing.T) {
	sp := &startedProviders{configure: func(providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
		return providers.ConfigureProviderResponse{Diagnostics: providers.Diagnostics{{Severity: providers.Warning, Summary: "Region is deprecated"}}}
	}}
	e := poolEngine(t, sp, `
provider "test" { region = "eu" }
resource "test_thing" "a" { name = "a" }
`, true)
	defer e.CloseProviders(context.Background())
	pdiags, adiags := planApplyDiags(t, e)
	for name, diags := range map[string]hcl.Diagnostics{"plan": pdiags, "apply": adiags} {
		if !strings.Contains(diags.Error(), "Region is deprecated") {
			t.Errorf("%s diagnostics %q lack the configuration warning", name, diags.Error())
		}
	}
	if got := sp.configures(); !equalInts(got, []int{1}) {
		t.Errorf("configured %v times, want [1]", got)
	}
}

// An instance whose configuration failed, or that was asked to stop, is
// closed rather than kept.
func TestKeepProvidersDropsFailedAndStopped(t *testing.T) {
	sp := &startedProviders{configure: func(providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
		return providers.ConfigureProviderResponse{Diagnostics: providers.Diagnostics{{Severity: providers.Error, Summary: "bad credentials"}}}
	}}
	e := poolEngine(t, sp, `resource "test_thing" "a" { name = "a" }`, true)
	if _, diags := e.Plan(context.Background(), nil, PlanOpts{}); !diags.HasErrors() {
		t.Fatal("plan succeeded with a failing provider configuration")
	}
	if started, closed := sp.count(); started != 1 || closed != 1 || len(e.pool.idle) != 0 {
		t.Errorf("after a failed configuration: started %d, closed %d, kept %d; want 1, 1, 0", started, closed, len(e.pool.idle))
	}

	sp = &startedProviders{}
	e = poolEngine(t, sp, `resource "test_thing" "a" { name = "a" }`, true)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e.Apply(ctx, plan)
	if started, closed := sp.count(); started != 1 || closed != 1 || len(e.pool.idle) != 0 {
		t.Errorf("after a cancelled apply: started %d, closed %d, kept %d; want 1, 1, 0", started, closed, len(e.pool.idle))
	}
}
