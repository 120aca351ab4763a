package engine

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
	"github.com/strata-dev/strata/internal/states"
)

// regionalProviders is a factory of fake providers, a new one per provider
// instance as plugin processes are, each creating objects whose id is its
// configured region and the object's name. deleted records, per region,
// the objects each instance deleted.
type regionalProviders struct {
	mu         sync.Mutex
	configured []string
	deleted    map[string][]string
}

func (rp *regionalProviders) factory() (providers.Interface, error) {
	schema := testSchema()
	schema.Provider = providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"region": {Type: cty.String, Optional: true},
	}}}
	p := &providertest.Provider{Schema: schema}
	var region string
	p.ConfigureProviderFn = func(req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
		region = req.Config.GetAttr("region").AsString()
		rp.mu.Lock()
		rp.configured = append(rp.configured, region)
		rp.mu.Unlock()
		return providers.ConfigureProviderResponse{}
	}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		if req.PlannedState.IsNull() {
			rp.mu.Lock()
			rp.deleted[region] = append(rp.deleted[region], req.PriorState.GetAttr("id").AsString())
			rp.mu.Unlock()
			return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
		}
		v := req.PlannedState.AsValueMap()
		v["id"] = cty.StringVal(region + "/" + v["name"].AsString())
		v["size"] = cty.NumberIntVal(1)
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	return p, nil
}

const regionalConfig = `
variable "regions" {
  type    = set(string)
  default = ["east", "west"]
}
variable "things" {
  type    = set(string)
  default = ["east", "west"]
}
provider "test" {
  alias    = "r"
  for_each = var.regions
  region   = each.key
}
resource "test_thing" "a" {
  for_each = var.things
  provider = test.r[each.key]
  name     = "a"
}
resource "test_thing" "lit" {
  provider = test.r["west"]
  name     = "lit"
}
`

func regionalEngine(t *testing.T, rp *regionalProviders, src string) *Engine {
	t.Helper()
	return &Engine{
		Config:    testConfigInline(t, map[string]string{"main.tf": src}),
		Providers: map[addrs.Provider]providers.Factory{addrs.NewDefaultProvider("test"): rp.factory},
		Version:   "test",
	}
}

func setVar(name string, vals ...string) map[string]InputValue {
	var elems []cty.Value
	for _, v := range vals {
		elems = append(elems, cty.StringVal(v))
	}
	set := cty.SetValEmpty(cty.String)
	if len(elems) > 0 {
		set = cty.SetVal(elems)
	}
	return map[string]InputValue{name: {Value: set}}
}

func TestProviderForEachRouting(t *testing.T) {
	rp := &regionalProviders{deleted: map[string][]string{}}
	e := regionalEngine(t, rp, regionalConfig)
	plan, state := planApply(t, e, nil, PlanOpts{})
	for _, c := range plan.Changes.Resources {
		want := map[string]string{
			`test_thing.a["east"]`: `provider["registry.terraform.io/hashicorp/test"].r["east"]`,
			`test_thing.a["west"]`: `provider["registry.terraform.io/hashicorp/test"].r["west"]`,
			`test_thing.lit`:       `provider["registry.terraform.io/hashicorp/test"].r["west"]`,
		}[c.Addr.String()]
		if c.ProviderAddr.String() != want {
			t.Errorf("%s planned with %s, want %s", c.Addr, c.ProviderAddr, want)
		}
	}
	for addr, want := range map[string]string{`test_thing.a["east"]`: `"east/a"`, `test_thing.a["west"]`: `"west/a"`, "test_thing.lit": `"west/lit"`} {
		if got := objectAttr(t, state, addr, "id"); got != want {
			t.Errorf("%s id = %s, want %s", addr, got, want)
		}
	}
	r := state.Resource(mustResource(t, "test_thing.a"))
	if got := r.InstanceProvider(addrs.StringKey("east")).String(); got != `provider["registry.terraform.io/hashicorp/test"].r["east"]` {
		t.Errorf("state records %s", got)
	}

	// The east element leaves the resource's for_each only: the object is
	// destroyed by the east instance.
	plan, state = planApply(t, e, state, PlanOpts{Variables: setVar("things", "west")})
	if a := actions(plan); a[`test_thing.a["east"]`] != plans.Delete || len(a) != 3 {
		t.Errorf("actions %v", a)
	}
	if got := strings.Join(rp.deleted["east"], ","); got != "east/a" {
		t.Errorf("east deleted %q, west %q", got, rp.deleted["west"])
	}

	// Removing the west element from the provider while objects use it
	// fails, for the configured and the orphaned instances alike.
	both := setVar("things")
	both["regions"] = setVar("regions", "east")["regions"]
	_, diags := e.Plan(context.Background(), state, PlanOpts{Variables: both})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Provider instance not present") {
		t.Fatalf("expected Provider instance not present, got %v", diags)
	}
	for _, d := range diags {
		if d.Summary == "Provider instance not present" && !strings.Contains(d.Detail, `provider["registry.terraform.io/hashicorp/test"].r["west"]`) {
			t.Errorf("detail names the wrong instance: %s", d.Detail)
		}
	}

	// Destroy uses each object's instance.
	rp.deleted = map[string][]string{}
	_, state = planApply(t, e, state, PlanOpts{Mode: plans.DestroyMode, Variables: setVar("things", "west")})
	if got := strings.Join(rp.deleted["west"], ","); !strings.Contains(got, "west/a") || !strings.Contains(got, "west/lit") {
		t.Errorf("west deleted %q", got)
	}
	if len(state.Resources) != 0 {
		t.Errorf("state not empty after destroy: %v", state.AllInstances())
	}
}

func TestProviderForEachStateWithoutKey(t *testing.T) {
	// An object created by the provider configuration before it had
	// for_each: its instance without key is no longer declared.
	rp := &regionalProviders{deleted: map[string][]string{}}
	e := regionalEngine(t, rp, regionalConfig)
	state := states.New()
	state.SetObject(mustInstance(t, "test_thing.old"), &states.ObjectSrc{AttrsJSON: []byte(`{"id":"x","name":"old","size":1,"color":null}`), Status: states.ObjectReady},
		addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("test"), Alias: "r"})
	_, diags := e.Plan(context.Background(), state, PlanOpts{})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "you've added for_each to this provider configuration") {
		t.Fatalf("wrong diagnostics: %v", diags)
	}
}

func TestProviderForEachValidate(t *testing.T) {
	rp := &regionalProviders{deleted: map[string][]string{}}
	e := regionalEngine(t, rp, regionalConfig)
	if diags := e.Validate(context.Background()); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	bad := regionalEngine(t, rp, strings.Replace(regionalConfig, "region   = each.key", "region   = each.nope", 1))
	if diags := bad.Validate(context.Background()); !diags.HasErrors() {
		t.Fatal("expected an error for each.nope")
	}
}

func TestProviderForEachKeyErrors(t *testing.T) {
	tests := map[string]struct {
		key, want string
	}{
		"undeclared key": {`"north"`, `selects the provider instance provider["registry.terraform.io/hashicorp/test"].r["north"]`},
		"null":           {`null`, "A provider instance key must not be null."},
		"sensitive":      {`sensitive("east")`, "must not be derived from a sensitive value"},
		"unknown":        {`test_thing.first.id`, "depends on values that cannot be determined until apply"},
		"not a string":   {`["east"]`, "The given instance key is unsuitable"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rp := &regionalProviders{deleted: map[string][]string{}}
			e := regionalEngine(t, rp, `
provider "test" {
  alias    = "r"
  for_each = toset(["east"])
  region   = each.key
}
resource "test_thing" "first" {
  provider = test.r["east"]
  name     = "first"
}
resource "test_thing" "a" {
  provider = test.r[`+tc.key+`]
  name     = "a"
}
`)
			_, diags := e.Plan(context.Background(), nil, PlanOpts{})
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.want) {
				t.Fatalf("want %q, got %v", tc.want, diags)
			}
		})
	}
}
