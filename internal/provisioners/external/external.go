// Package external finds provisioner plugins — terraform-provisioner-NAME
// binaries, Terraform's third-party provisioners — where Terraform looks
// for them, and runs them as provisioners.Provisioner: the engine treats a
// plugin's type like local-exec, remote-exec and file. A plugin's process
// starts when its schema is first needed and ends with Close (or with the
// command, as go-plugin's managed clients do).
package external

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin"
	"github.com/strata-dev/strata/internal/provisioners"
)

// Dirs are the directories searched for provisioner plugins, in order, as
// Terraform searches them: the working directory, the directory of the
// running executable, terraform.d/plugins/OS_ARCH, the data directory's
// plugins/OS_ARCH (.terraform/plugins/OS_ARCH), and ~/.terraform.d/plugins
// and its OS_ARCH subdirectory. Empty arguments are left out.
func Dirs(workDir, exeDir, dataDir, home string) []string {
	platform := runtime.GOOS + "_" + runtime.GOARCH
	var dirs []string
	add := func(parts ...string) {
		if parts[0] != "" {
			dirs = append(dirs, filepath.Join(parts...))
		}
	}
	add(workDir)
	add(exeDir)
	add(workDir, "terraform.d", "plugins", platform)
	add(dataDir, "plugins", platform)
	add(home, ".terraform.d", "plugins")
	add(home, ".terraform.d", "plugins", platform)
	return dirs
}

// Find returns the plugin for provisioner type typeName in the first of
// dirs that has one — terraform-provisioner-TYPE, or
// terraform-provisioner-TYPE_vVERSION (the highest version) — or "".
func Find(typeName string, dirs []string) string {
	name := "terraform-provisioner-" + typeName
	for _, dir := range dirs {
		if isExecutable(filepath.Join(dir, name)) {
			return filepath.Join(dir, name)
		}
		matches, _ := filepath.Glob(filepath.Join(dir, name+"_v*"))
		best, bestVersion := "", (*version.Version)(nil)
		for _, m := range matches {
			v, err := version.NewVersion(strings.TrimPrefix(filepath.Base(m), name+"_v"))
			if err != nil || !isExecutable(m) {
				continue
			}
			if bestVersion == nil || v.GreaterThan(bestVersion) {
				best, bestVersion = m, v
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// Provisioner is a provisioner plugin as a provisioners.Provisioner.
type Provisioner struct {
	typeName, path string
	opts           []plugin.Option

	once   sync.Once
	p      *plugin.Provisioner
	schema *configschema.Block
	diags  hcl.Diagnostics
}

// New returns the provisioner of type typeName served by the plugin at
// path; nothing starts until it is used.
func New(typeName, path string, opts ...plugin.Option) *Provisioner {
	return &Provisioner{typeName: typeName, path: path, opts: opts}
}

// Load starts the plugin and reads its schema, once; its diagnostics say
// why the provisioner cannot be used.
func (p *Provisioner) Load() hcl.Diagnostics {
	p.once.Do(func() {
		pp, err := plugin.NewProvisioner(p.path, p.opts...)
		if err != nil {
			p.diags = loadError(p.typeName, err.Error())
			return
		}
		p.p = pp
		s, pd, err := pp.Schema(context.Background())
		p.diags = toHCL(pd)
		switch {
		case err != nil:
			p.diags = append(p.diags, loadError(p.typeName, err.Error())...)
		case s != nil:
			p.schema = s
		}
	})
	return p.diags
}

// loadError is Terraform's error for a provisioner whose schema cannot be
// read.
func loadError(typeName, why string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Failed to load plugin schemas",
		Detail:   "Error while loading schemas for plugin components: Failed to obtain provisioner schema: Could not load the schema for provisioner \"" + typeName + "\": " + why + ".",
	}}
}

// Schema implements provisioners.Provisioner; it is empty when the plugin
// could not be loaded (Load says why).
func (p *Provisioner) Schema() *configschema.Block {
	p.Load()
	if p.schema == nil {
		return &configschema.Block{}
	}
	return p.schema
}

// Validate implements provisioners.Provisioner.
func (p *Provisioner) Validate(cfg cty.Value) hcl.Diagnostics {
	if d := p.Load(); d.HasErrors() || p.p == nil {
		return d
	}
	pd, err := p.p.Validate(context.Background(), cfg, p.Schema().ImpliedType())
	if err != nil {
		return provisioners.Error(p.typeName, err)
	}
	return toHCL(pd)
}

// Provision implements provisioners.Provisioner. The connection goes to
// the plugin as a map of strings, the form provisioner plugins decode.
func (p *Provisioner) Provision(ctx context.Context, req provisioners.Request) hcl.Diagnostics {
	if d := p.Load(); d.HasErrors() || p.p == nil {
		return d
	}
	connTy := cty.Map(cty.String)
	conn := cty.NullVal(connTy)
	if req.Connection != cty.NilVal && !req.Connection.IsNull() {
		var err error
		if conn, err = convert.Convert(req.Connection, connTy); err != nil {
			return provisioners.Error(p.typeName, err)
		}
	}
	output := req.Output
	if output == nil {
		output = func(string) {}
	}
	pd, err := p.p.Provision(ctx, req.Config, p.Schema().ImpliedType(), conn, connTy, output)
	diags := toHCL(pd)
	if err != nil {
		diags = append(diags, provisioners.Error(p.typeName, err)...)
	}
	return diags
}

// Close ends the plugin's process, if it started.
func (p *Provisioner) Close() {
	if p.p != nil {
		p.p.Close()
	}
}

func toHCL(pd providers.Diagnostics) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, d := range pd {
		sev := hcl.DiagError
		if d.Severity == providers.Warning {
			sev = hcl.DiagWarning
		}
		diags = append(diags, &hcl.Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail})
	}
	return diags
}

// builtin are the types strata runs itself.
var builtin = map[string]bool{"local-exec": true, "remote-exec": true, "file": true}

// ForTypes returns the plugins, found in dirs, for those of types that are
// not built in; a type without a plugin is left out (the engine reports
// it). Nothing starts until a plugin is used.
func ForTypes(types []string, dirs []string, opts ...plugin.Option) map[string]provisioners.Provisioner {
	out := map[string]provisioners.Provisioner{}
	for _, t := range types {
		if builtin[t] || out[t] != nil {
			continue
		}
		if path := Find(t, dirs); path != "" {
			out[t] = New(t, path, opts...)
		}
	}
	return out
}
