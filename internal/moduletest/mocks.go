package moduletest

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/mock"
)

// schemaCache holds the schemas of mocked providers, fetched once per
// test run from the real providers.
type schemaCache struct {
	mu sync.Mutex
	m  map[addrs.Provider]*providers.GetProviderSchemaResponse
}

func (c *schemaCache) get(ctx context.Context, fqn addrs.Provider, real providers.Factory) (providers.GetProviderSchemaResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.m[fqn]; ok {
		return *s, nil
	}
	p, err := real()
	if err != nil {
		return providers.GetProviderSchemaResponse{}, err
	}
	defer p.Close(context.WithoutCancel(ctx))
	s := p.GetProviderSchema(ctx)
	for _, d := range s.Diagnostics {
		if d.Severity == providers.Error {
			return s, fmt.Errorf("%s: %s", d.Summary, d.Detail)
		}
	}
	if c.m == nil {
		c.m = map[addrs.Provider]*providers.GetProviderSchemaResponse{}
	}
	c.m[fqn] = &s
	return s, nil
}

// applyMocks replaces the mocked provider configurations of the file in
// eng by mocks (a mock_provider with an alias replaces that configuration
// only, one without the default configuration) and
// gives eng the overrides of the mock providers, the file and the run, in
// that order of precedence (the run's win).
func (fr *fileRun) applyMocks(ctx context.Context, eng *engine.Engine, cfg *configs.Config, rc *configs.TestRun) hcl.Diagnostics {
	tf := fr.f.Config
	if len(tf.MockProviders) == 0 && len(tf.Overrides) == 0 && len(rc.Overrides) == 0 && len(tf.ModuleOverrides) == 0 && len(rc.ModuleOverrides) == 0 {
		return nil
	}
	var diags hcl.Diagnostics
	// Mock values and overrides may call functions; relative paths
	// resolve against the working directory.
	fns := fr.rn.functions(".")
	byConfig := map[string]providers.Factory{}
	overrides := map[string]engine.Override{}
	for _, key := range sortedNames(tf.MockProviders) {
		mp := tf.MockProviders[key]
		fqn := cfg.Module.ProviderForLocalName(mp.Name)
		real, ok := eng.Providers[fqn]
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Mocked provider not installed",
				Detail:   fmt.Sprintf("The mock provider %q stands in for %s, whose schema strata reads from the installed provider. Run strata init to install it.", mp.Name, fqn),
				Subject:  mp.DeclRange.Ptr(),
			})
			continue
		}
		resources, rdiags := staticValues(fns, mp.Resources)
		data, ddiags := staticValues(fns, mp.DataSources)
		diags = append(append(diags, rdiags...), ddiags...)
		fqn, cache, during := fqn, &fr.rn.schemas, mp.DuringPlan
		config := addrs.AbsProviderConfig{Provider: fqn, Alias: mp.Alias}
		byConfig[config.String()] = func() (providers.Interface, error) {
			schema, err := cache.get(ctx, fqn, real)
			if err != nil {
				return nil, err
			}
			return &mock.Provider{Schema: schema, Resources: resources, DataSources: data, DuringPlan: during, ResourceDuringPlan: mp.ResourceDuringPlan}, nil
		}
		diags = append(diags, addOverrides(fns, overrides, mp.Overrides, mp.DuringPlan)...)
	}
	diags = append(diags, addOverrides(fns, overrides, tf.Overrides, false)...)
	diags = append(diags, addOverrides(fns, overrides, rc.Overrides, false)...)
	modules := map[string]cty.Value{}
	diags = append(diags, addModuleOverrides(fns, modules, tf.ModuleOverrides)...)
	diags = append(diags, addModuleOverrides(fns, modules, rc.ModuleOverrides)...)
	// As in terraform test, the run's own override targets must be in
	// its configuration; the file's need only be in one of the
	// configurations its runs use, and are checked at the end.
	for _, t := range runOverrideTargets(rc) {
		if !overrideTargetExists(cfg, t) {
			diags = append(diags, missingOverrideTarget(t))
		}
	}
	fr.sh.sawOverrideTargets(cfg, fileOverrideTargets(tf))
	eng.ConfigProviders = byConfig
	eng.Overrides = overrides
	eng.ModuleOverrides = modules
	return diags
}

// addModuleOverrides evaluates override_module blocks into m, keyed by
// the module instance address they target (module.a or module.a[1]).
func addModuleOverrides(fns map[string]function.Function, m map[string]cty.Value, overrides []*configs.TestModuleOverride) hcl.Diagnostics {
	var diags hcl.Diagnostics
	ctx := &hcl.EvalContext{Functions: fns}
	for _, o := range overrides {
		mi, ok := addrs.ParseModuleInstance(o.Target)
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid override target",
				Detail:   "The target of an override_module block must be a module call, such as module.network.",
				Subject:  o.Target.SourceRange().Ptr(),
			})
			continue
		}
		v, vdiags := o.Outputs.Value(ctx)
		diags = append(diags, vdiags...)
		if !vdiags.HasErrors() {
			// module.a overrides every instance of the call; module.a[1]
			// that one only, as in terraform test.
			m[mi.String()] = v
		}
	}
	return diags
}

// staticValues evaluates mock defaults, which may call functions but refer
// to nothing.
func staticValues(fns map[string]function.Function, exprs map[string]hcl.Expression) (map[string]cty.Value, hcl.Diagnostics) {
	out := map[string]cty.Value{}
	var diags hcl.Diagnostics
	ctx := &hcl.EvalContext{Functions: fns}
	names := make([]string, 0, len(exprs))
	for n := range exprs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v, vdiags := exprs[n].Value(ctx)
		diags = append(diags, vdiags...)
		if !vdiags.HasErrors() {
			out[n] = v
		}
	}
	return out, diags
}

// addOverrides evaluates override blocks into m, keyed by target address.
// duringPlan is the default of their override_during.
func addOverrides(fns map[string]function.Function, m map[string]engine.Override, overrides []*configs.TestOverride, duringPlan bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	ctx := &hcl.EvalContext{Functions: fns}
	for _, o := range overrides {
		v, vdiags := o.Values.Value(ctx)
		diags = append(diags, vdiags...)
		if !vdiags.HasErrors() {
			during := duringPlan
			if o.DuringPlan != nil {
				during = *o.DuringPlan
			}
			m[addrs.TraversalString(o.Target)] = engine.Override{Values: v, DuringPlan: during}
		}
	}
	return diags
}

// missingOverrideTarget warns about an override of something the
// configuration under test does not have.
func missingOverrideTarget(target hcl.Traversal) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Invalid override target",
		Detail:   fmt.Sprintf("The override target %s does not exist within the configuration under test. This could indicate a typo in the target address or an unnecessary override.", addrs.TraversalString(target)),
		Subject:  target.SourceRange().Ptr(),
	}
}

// fileOverrideTargets lists the targets of a file's override blocks, its
// mock providers' included, in the order of the file.
func fileOverrideTargets(tf *configs.TestFile) []hcl.Traversal {
	var out []hcl.Traversal
	for _, key := range sortedNames(tf.MockProviders) {
		for _, o := range tf.MockProviders[key].Overrides {
			out = append(out, o.Target)
		}
	}
	for _, o := range tf.Overrides {
		out = append(out, o.Target)
	}
	for _, o := range tf.ModuleOverrides {
		out = append(out, o.Target)
	}
	return out
}

// runOverrideTargets lists the targets of a run block's override blocks.
func runOverrideTargets(rc *configs.TestRun) []hcl.Traversal {
	var out []hcl.Traversal
	for _, o := range rc.Overrides {
		out = append(out, o.Target)
	}
	for _, o := range rc.ModuleOverrides {
		out = append(out, o.Target)
	}
	return out
}

// overrideTargetExists reports whether cfg has the resource, data source
// or module call an override block targets.
func overrideTargetExists(cfg *configs.Config, target hcl.Traversal) bool {
	if mi, ok := addrs.ParseModuleInstance(target); ok {
		return cfg.Descendant(mi.Module()) != nil
	}
	addr, diags := addrs.ParseAbsResourceInstance(target)
	return diags.HasErrors() || cfg.Resource(addr.Module.Module(), addr.Resource.Resource) != nil
}

// overrideKey identifies an override block by where its target is.
func overrideKey(t hcl.Traversal) string { return t.SourceRange().String() }

// sawOverrideTargets records which of targets cfg has.
func (sh *fileState) sawOverrideTargets(cfg *configs.Config, targets []hcl.Traversal) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.overridesFound == nil {
		sh.overridesFound = map[string]bool{}
	}
	for _, t := range targets {
		if overrideTargetExists(cfg, t) {
			sh.overridesFound[overrideKey(t)] = true
		}
	}
}

// missingFileOverrides warns about the file's override targets that none
// of the configurations its runs used has. Nothing is said when no run
// got as far as its overrides.
func (fr *fileRun) missingFileOverrides() hcl.Diagnostics {
	fr.sh.mu.Lock()
	defer fr.sh.mu.Unlock()
	if fr.sh.overridesFound == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, t := range fileOverrideTargets(fr.f.Config) {
		if !fr.sh.overridesFound[overrideKey(t)] {
			diags = append(diags, missingOverrideTarget(t))
		}
	}
	return diags
}
