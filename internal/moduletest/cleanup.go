package moduletest

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// cleanup destroys what the file's apply runs created, state by state in
// the reverse order of their creation, each with the configuration and
// variables of the last run that applied to it. A state that cannot be
// destroyed is saved through SaveRecovery and reported, so that nothing
// is lost. It reports whether a destroy failed.
func (fr *fileRun) cleanup(ctx context.Context) (failed bool) {
	for i := len(fr.sh.order) - 1; i >= 0; i-- {
		entry := fr.sh.states[fr.sh.order[i]]
		if entry.state.Empty() || !hasManaged(entry.state) {
			// Nothing to destroy: data sources only, as terraform test
			// skips them too.
			continue
		}
		fr.rn.Reporter.TeardownRun(fr.f, entry.run)
		eng := fr.rn.NewEngine(entry.cfg)
		eng.ConfigProviders, eng.Overrides, eng.ModuleOverrides = entry.providers, entry.overrides, entry.modules
		eng.KeepProviders = true // the destroy's plan and apply share them
		// As in terraform test, no normal plan (refresh) comes first: the
		// conditions that run expected to fail would stop the destroy;
		// and the configuration's validation warnings, shown with the
		// run, are not shown again.
		stop := fr.rn.ticker(time.Now(), func(elapsed time.Duration) {
			fr.rn.Reporter.RunProgress(fr.f, entry.run, true, elapsed)
		})
		plan, pdiags := eng.Plan(ctx, entry.state, engine.PlanOpts{Mode: plans.DestroyMode, Variables: entry.vars, SkipRefresh: true, HideValidationWarnings: true})
		ddiags := pdiags
		left := entry.state
		if !pdiags.HasErrors() && plan != nil {
			var adiags hcl.Diagnostics
			var after *states.State
			after, adiags = eng.Apply(ctx, plan)
			ddiags = append(ddiags, adiags...)
			if after != nil {
				left = after
			}
		}
		stop()
		eng.CloseProviders(ctx)
		if !ddiags.HasErrors() {
			continue
		}
		failed = true
		c := &Cleanup{Run: entry.run, Diagnostics: ddiags, Left: leftObjects(left)}
		if fr.rn.SaveRecovery != nil && len(c.Left) > 0 {
			c.Recovery, c.RecoveryErr = fr.rn.SaveRecovery(fr.f, left)
		}
		fr.rn.Reporter.CleanupFailed(fr.f, c)
	}
	return failed
}

// Cleanup is what a failed destroy at the end of a file left: the run
// that last applied to the state, the errors, the managed objects still
// in the state, and where their state was saved (Recovery, empty if it
// could not be: RecoveryErr says why).
type Cleanup struct {
	Run         *Run
	Diagnostics hcl.Diagnostics
	// Left are the managed objects' addresses, a deposed object's
	// followed by its key in parentheses.
	Left        []string
	Recovery    string
	RecoveryErr error
}

// leftObjects lists the managed objects of s, sorted.
func leftObjects(s *states.State) []string {
	var out []string
	for _, r := range s.SortedResources() {
		if r.Addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		for _, k := range r.SortedKeys() {
			inst := r.Instances[k]
			addr := r.Addr.Instance(k).String()
			if inst.Current != nil {
				out = append(out, addr)
			}
			for _, dk := range sortedNames(inst.Deposed) {
				out = append(out, fmt.Sprintf("%s (%s)", addr, dk))
			}
		}
	}
	return out
}

// hasManaged reports whether s holds a managed resource.
func hasManaged(s *states.State) bool {
	for _, r := range s.Resources {
		if r.Addr.Resource.Mode == addrs.ManagedResourceMode {
			return true
		}
	}
	return false
}
