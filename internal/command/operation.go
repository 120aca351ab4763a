package command

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
)

// viewFlags are the output options every command takes.
type viewFlags struct {
	noColor bool
}

func (d *Deps) newView(f viewFlags) *views.View {
	return &views.View{Stdout: d.Stdout, Stderr: d.Stderr, NoColor: f.noColor}
}

// newEngine builds an engine for the configuration in the working
// directory.
func newEngine(d *Deps, mod *configs.Module, v *views.View, parallelism int) *engine.Engine {
	return &engine.Engine{
		Config:      mod,
		Providers:   d.Providers("."),
		Parallelism: parallelism,
		Hooks:       []hooks.Hook{&views.UIHook{View: v}},
		Version:     d.Version,
		Workspace:   workspaceName(d),
	}
}

// workspaceName is the selected workspace: TF_WORKSPACE or "default".
func workspaceName(d *Deps) string {
	if ws := d.Getenv("TF_WORKSPACE"); ws != "" {
		return ws
	}
	return "default"
}

// schemaLookup returns a views.SchemaFunc that fetches each provider's
// schema once.
func schemaLookup(ctx context.Context, factories map[addrs.Provider]providers.Factory) views.SchemaFunc {
	var mu sync.Mutex
	cache := map[addrs.Provider]*providers.GetProviderSchemaResponse{}
	return func(c *plans.ResourceInstanceChange) *configschema.Block {
		mu.Lock()
		defer mu.Unlock()
		p := c.ProviderAddr.Provider
		resp, ok := cache[p]
		if !ok {
			f, ok := factories[p]
			if !ok {
				return nil
			}
			inst, err := f()
			if err != nil {
				return nil
			}
			r := inst.GetProviderSchema(ctx)
			_ = inst.Close(ctx)
			resp = &r
			cache[p] = resp
		}
		types := resp.ResourceTypes
		if c.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
			types = resp.DataSources
		}
		return types[c.Addr.Resource.Resource.Type].Block
	}
}

// hasErrors writes diagnostics and reports whether any is an error.
func hasErrors(v *views.View, diags hcl.Diagnostics) bool {
	v.Diagnostics(diags)
	return diags.HasErrors()
}

// errorDiag turns a Go error into a single error diagnostic.
func errorDiag(summary string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: err.Error()}}
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
