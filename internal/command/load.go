package command

import (
	"fmt"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/datadir"
)

// TerraformCompatVersion is the Terraform version whose language and
// formats strata implements. required_version constraints are checked
// against it, so configurations written for Terraform work unchanged.
const TerraformCompatVersion = "1.11.4"

// diagView is a view that shows diagnostics with source snippets.
type diagView interface {
	Diagnostics(hcl.Diagnostics)
	SetFiles(map[string]*hcl.File)
}

const noConfigFiles = "No configuration files"

// loadConfig loads the configuration in the working directory, the root
// module and the modules it calls, recording the sources in the view for
// diagnostics. The result is nil only when the root module cannot be read.
func loadConfig(d *Deps, v diagView) (*configs.Config, *configs.Parser, hcl.Diagnostics) {
	return loadConfigDir(d, v, ".")
}

// loadConfigDir is loadConfig for the configuration in dir, which import
// -config names.
func loadConfigDir(d *Deps, v diagView, dir string) (*configs.Config, *configs.Parser, hcl.Diagnostics) {
	return loadConfigDirVars(d, v, dir, nil)
}

// loadConfigDirVars is loadConfigDir with the -var and -var-file options
// of the command, for early evaluation.
func loadConfigDirVars(d *Deps, v diagView, dir string, vf *varFlags) (*configs.Config, *configs.Parser, hcl.Diagnostics) {
	p := d.newParser()
	p.SetRootVariables(dir, earlyVariables(d, vf))
	cfg, diags := p.LoadConfig(dir)
	v.SetFiles(p.Files())
	if cfg != nil && !diags.HasErrors() {
		diags = append(diags, checkRequiredVersions(cfg)...)
	}
	if cfg != nil && len(p.Files()) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  noConfigFiles,
			Detail:   "The directory has no strata configuration files (*.tf, *.tf.json, *.tofu or *.tofu.json). Run this command in a directory holding a configuration, or use -chdir=DIR.",
		})
	}
	return cfg, p, diags
}

// loadConfigForInit loads the whole configuration as init needs it: the
// checks of module calls against their modules (missing or unknown
// arguments...) are left to validate and plan, as in Terraform. vf holds
// init's -var and -var-file, nil for the commands without them.
func loadConfigForInit(d *Deps, v diagView, vf *varFlags) (*configs.Config, hcl.Diagnostics) {
	p := d.newParser()
	p.SkipCallChecks()
	p.SetRootVariables(".", earlyVariables(d, vf))
	cfg, diags := p.LoadConfig(".")
	v.SetFiles(p.Files())
	if cfg != nil && !diags.HasErrors() {
		diags = append(diags, checkRequiredVersions(cfg)...)
	}
	return cfg, diags
}

// dropNoConfigFiles removes the "No configuration files" error, for the
// commands that work without a configuration.
func dropNoConfigFiles(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Summary != noConfigFiles {
			out = append(out, d)
		}
	}
	return out
}

// loadRootModule loads only the root module, for init, which installs the
// modules it calls. Its required_version is checked with the whole
// configuration's (loadConfigForInit), once the modules are installed, as
// Terraform does. vf holds init's -var and -var-file, or is nil.
func loadRootModule(d *Deps, v diagView, vf *varFlags) (*configs.Module, hcl.Diagnostics) {
	p := d.newParser()
	p.SetRootVariables(".", earlyVariables(d, vf))
	mod, diags := p.LoadModule(".")
	v.SetFiles(p.Files())
	return mod, diags
}

// isVersionDiag reports whether d is a failed required_version.
func isVersionDiag(d *hcl.Diagnostic) bool {
	return d.Summary == unsupportedVersion
}

// rootOf returns the root module of a configuration, or nil.
func rootOf(cfg *configs.Config) *configs.Module {
	if cfg == nil {
		return nil
	}
	return cfg.Module
}

const unsupportedVersion = "Unsupported Terraform Core version"

// checkRequiredVersion checks the required_version constraints of the
// module of c against TerraformCompatVersion, the language version strata
// implements. As Terraform, it reports a child module's failure once per
// call, naming the call and its source ("Module module.a (from ./m)").
//
// A constraint that only newer Terraform 1.x versions meet (">= 1.12",
// "~> 1.13.0") is a warning: strata implements the language features of
// later versions that it documents, and any syntax it does not implement
// is an error where it is used. A constraint that no 1.x version from
// TerraformCompatVersion on meets ("< 1.0", "~> 1.5.0", ">= 2.0") is an
// error, as in Terraform.
func checkRequiredVersion(c *configs.Config) hcl.Diagnostics {
	current := version.Must(version.NewVersion(TerraformCompatVersion))
	subject := "This configuration"
	if c.Call != nil {
		subject = fmt.Sprintf("Module %s (from %s)", c.Path, c.Call.Source)
	}
	var diags hcl.Diagnostics
	for _, vc := range c.Module.RequiredVersions {
		if vc.Required.Check(current) {
			continue
		}
		if newer := newerLanguageVersion(current, c.Module.RequiredVersions); newer != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  newerVersionRequired,
				Detail: fmt.Sprintf("%s asks for Terraform version %s, newer than %s, the version of the language strata implements. strata goes on, taking the constraint to be about the version number only: it implements the later language features its documentation lists, and reports any it does not as errors where they are used.",
					subject, vc.Required, TerraformCompatVersion),
				Subject: vc.DeclRange.Ptr(),
			})
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  unsupportedVersion,
			Detail: fmt.Sprintf("%s does not support Terraform version %s, the version of the language strata implements. To proceed, either choose another supported version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.",
				subject, TerraformCompatVersion),
			Subject: vc.DeclRange.Ptr(),
		})
	}
	return diags
}

const newerVersionRequired = "Newer Terraform version required"

// newerLanguageVersion returns a Terraform 1.x version later than current
// that meets every constraint of vcs, or nil when there is none. The
// versions tried are every 1.MINOR.PATCH up to 1.99.99 from current on,
// and the versions the constraints name, which covers every constraint
// built from comparisons with release versions.
func newerLanguageVersion(current *version.Version, vcs []configs.VersionConstraint) *version.Version {
	meets := func(v *version.Version) bool {
		for _, vc := range vcs {
			if !vc.Required.Check(v) {
				return false
			}
		}
		return true
	}
	var named []*version.Version
	for _, vc := range vcs {
		for _, c := range vc.Required {
			if v, err := version.NewVersion(strings.TrimLeft(c.String(), "<>=!~ ")); err == nil {
				named = append(named, v)
			}
		}
	}
	for _, v := range named {
		if v.GreaterThan(current) && v.Segments()[0] == 1 && meets(v) {
			return v
		}
	}
	minor := current.Segments()[1]
	for m := minor; m < 100; m++ {
		for p := 0; p < 100; p++ {
			v := version.Must(version.NewVersion(fmt.Sprintf("1.%d.%d", m, p)))
			if v.GreaterThan(current) && meets(v) {
				return v
			}
		}
	}
	return nil
}

// checkRequiredVersions checks the required_version constraints of every
// module of cfg.
func checkRequiredVersions(cfg *configs.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	cfg.DeepEach(func(c *configs.Config) {
		diags = append(diags, checkRequiredVersion(c)...)
	})
	return diags
}

// earlyVariables returns the root variable values OpenTofu's early
// evaluation (module source and version) sees: those of TF_VAR_
// environment variables, variable files and, with vf, -var and -var-file.
// Their errors are reported when the variables are collected for the
// operation itself.
func earlyVariables(d *Deps, vf *varFlags) func(*configs.Module) map[string]cty.Value {
	if vf != nil && vf.items == nil {
		vf = nil // flags never registered
	}
	return func(mod *configs.Module) map[string]cty.Value {
		vals, _ := collectVariables(d, mod, d.newParser(), vf, false)
		out := make(map[string]cty.Value, len(vals))
		for name, iv := range vals {
			out[name] = iv.Value
		}
		return out
	}
}

// newParser is a configuration parser reading relative paths from the
// working directory.
func (d *Deps) newParser() *configs.Parser {
	p := configs.NewParser()
	if d != nil {
		p.SetWorkDir(d.Dir)
		p.SetDataDir(datadir.PathEnv(d.Getenv))
	}
	return p
}
