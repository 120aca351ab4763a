package moduletest

import (
	"context"
	"fmt"
	"strings"

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
// is lost.
func (fr *fileRun) cleanup(ctx context.Context) hcl.Diagnostics {
	var diags hcl.Diagnostics
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
		// As in terraform test, no normal plan (refresh) comes first: the
		// conditions that run expected to fail would stop the destroy.
		plan, pdiags := eng.Plan(ctx, entry.state, engine.PlanOpts{Mode: plans.DestroyMode, Variables: entry.vars, SkipRefresh: true})
		ddiags := pdiags
		left := entry.state
		if !pdiags.HasErrors() && plan != nil {
			var adiags hcl.Diagnostics
			left, adiags = eng.Apply(ctx, plan)
			ddiags = append(ddiags, adiags...)
		}
		if !ddiags.HasErrors() {
			continue
		}
		diags = append(diags, ddiags...)
		var addrs []string
		for _, a := range left.AllInstances() {
			addrs = append(addrs, "  - "+a.String())
		}
		detail := fmt.Sprintf("strata could not destroy what run %q created in %s. These objects are left:\n%s", entry.run.Config.Name, fr.f.Path, strings.Join(addrs, "\n"))
		if fr.rn.SaveRecovery != nil {
			if where, err := fr.rn.SaveRecovery(fr.f, left); err != nil {
				detail += fmt.Sprintf("\n\nThe state could not be saved either (%s): record these objects and delete them by hand.", err)
			} else {
				detail += fmt.Sprintf("\n\nTheir state is saved in %s: destroy them with strata destroy -state=%s, or delete them by hand.", where, where)
			}
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Failed to clean up after tests",
			Detail:   detail,
		})
	}
	return diags
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
