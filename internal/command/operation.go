package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers/plugin"
	"github.com/strata-dev/strata/internal/provisioners/external"
)

// viewFlags are the output options every command takes.
type viewFlags struct {
	noColor bool
	// json selects the machine-readable UI stream, where supported.
	json bool
	// compactWarnings shows warnings by summary only.
	compactWarnings bool
}

// register adds -no-color to a command that lists it in its help.
func (f *viewFlags) register(fs *pflag.FlagSet) { views.RegisterNoColor(fs, &f.noColor) }

func (d *Deps) newView(f viewFlags) *views.View {
	return &views.View{Stdout: d.Stdout, Stderr: d.Stderr, NoColor: f.noColor || d.noColor, CompactWarnings: f.compactWarnings}
}

// newOperationView returns the view of plan, apply and destroy: human, or
// the -json stream, which starts with its version message.
func (d *Deps) newOperationView(f viewFlags) views.Operation {
	if !f.json {
		return views.NewOperation(d.newView(f), nil)
	}
	j := views.NewJSON(d.Stdout, nil)
	j.Version(TerraformCompatVersion, d.Version)
	return views.NewOperation(nil, j)
}

// newEngine builds an engine for the configuration in the working
// directory.
func newEngine(d *Deps, cfg *configs.Config, hook hooks.Hook, parallelism int) *engine.Engine {
	return &engine.Engine{
		Config:      cfg,
		Providers:   d.Providers("."),
		Parallelism: parallelism,
		Hooks:       []hooks.Hook{hook},
		// Providers are told the Terraform version whose protocol and
		// behaviour strata implements.
		Version:   TerraformCompatVersion,
		Workspace: workspaceName(d),
		WorkDir:   d.Dir,
		// path.cwd is the directory before -chdir, as in Terraform.
		OriginalDir: d.originalDir,
		Environ:     d.Environ,
		Provisioners: external.ForTypes(provisionerTypes(cfg), provisionerDirs(d),
			plugin.WithDir(d.Dir), plugin.WithGetenv(d.Getenv), plugin.WithLogOutput(d.logOutput()),
			plugin.WithEnviron(d.Environ), plugin.WithTracker(d.plugins)),
	}
}

// provisionerTypes are the types of the provisioner blocks of cfg.
func provisionerTypes(cfg *configs.Config) []string {
	var types []string
	if cfg == nil {
		return nil
	}
	cfg.DeepEach(func(c *configs.Config) {
		for _, r := range c.Module.ManagedResources {
			for _, p := range r.Managed.Provisioners {
				types = append(types, p.Type)
			}
		}
		for _, rm := range c.Module.Removed {
			for _, p := range rm.Provisioners {
				types = append(types, p.Type)
			}
		}
	})
	return types
}

// provisionerDirs are where provisioner plugins are looked for, as in
// Terraform: see external.Dirs.
func provisionerDirs(d *Deps) []string {
	exeDir := ""
	if exe, err := os.Executable(); err == nil {
		exeDir = filepath.Dir(exe)
	}
	return external.Dirs(d.Dir, exeDir, d.dataDir(), d.Getenv("HOME"))
}

// workspaceName is the selected workspace: TF_WORKSPACE, else the name
// recorded in .terraform/environment, else "default".
func workspaceName(d *Deps) string {
	if ws := d.Getenv("TF_WORKSPACE"); ws != "" {
		return ws
	}
	if data, err := os.ReadFile(d.dataDir("environment")); err == nil {
		if ws := strings.TrimSpace(string(data)); ws != "" {
			return ws
		}
	}
	return "default"
}

// schemaLookup returns a views.SchemaFunc backed by the engine's schemas,
// fetched at most once per provider.
func schemaLookup(ctx context.Context, e *engine.Engine) views.SchemaFunc {
	return func(c *plans.ResourceInstanceChange) *configschema.Block {
		return e.ResourceSchema(ctx, c.ProviderAddr.Provider, c.Addr.Resource.Resource.Mode, c.Addr.Resource.Resource.Type)
	}
}

// hasErrors writes diagnostics and reports whether any is an error.
func hasErrors(v diagView, diags hcl.Diagnostics) bool {
	v.Diagnostics(diags)
	return diags.HasErrors()
}

// errorDiag turns a Go error into a single error diagnostic.
func errorDiag(summary string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: err.Error()}}
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// inAutomation reports whether TF_IN_AUTOMATION asks for output without
// advice about which command to run next.
func inAutomation(d *Deps) bool { return d.Getenv("TF_IN_AUTOMATION") != "" }

// inputAllowed reports whether strata may ask questions: the -input flag
// (on by default) unless TF_INPUT is a false value (0, false), as in
// Terraform, where TF_INPUT=0 wins over -input=true.
func inputAllowed(d *Deps, flag bool) bool {
	if v, err := strconv.ParseBool(d.Getenv("TF_INPUT")); err == nil && !v {
		return false
	}
	return flag
}
