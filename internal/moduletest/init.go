package moduletest

import (
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/configs"
)

// What init needs of the test files: the modules their run blocks load,
// to install them, and the providers those modules need.

// RunModule is the module a run block loads, as init installs it.
type RunModule struct {
	// Key is the module's key in the module manifest.
	Key string
	// Call is the run block's module block as a module call.
	Call *configs.ModuleCall
}

// RunModules returns the modules the run blocks of the test files of the
// module in dir (in dir and testDir) load, and the test files' sources,
// for the snippets of diagnostics about them. parser reads the files: a
// new one, whose working directory (SetWorkDir) dir is relative to.
func RunModules(parser *configs.Parser, dir, testDir string) ([]RunModule, map[string]*hcl.File, hcl.Diagnostics) {
	paths, err := Discover(parser.Abs(dir), testDir, nil)
	if err != nil {
		return nil, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to find test files", Detail: err.Error()}}
	}
	files, diags := Load(parser, dir, paths)
	var out []RunModule
	for _, f := range files {
		for _, r := range f.Runs {
			m := r.Config.Module
			if m == nil {
				continue
			}
			out = append(out, RunModule{
				Key: configs.TestModuleKey(f.Path, r.Config.Name),
				Call: &configs.ModuleCall{
					Name: r.Config.Name, Source: m.Source, Version: m.Version,
					SourceRange: m.DeclRange, DeclRange: m.DeclRange,
				},
			})
		}
	}
	return out, parser.Files(), diags
}

// WithRunModules returns cfg, the configuration of the module in dir,
// with, beside its own modules, the helper modules that the run blocks of
// its test files (in dir and testDir) load from local paths (module {
// source = "./tests/setup" }), so that init installs the providers they
// need too, as terraform init does. cfg itself is left alone. Test files
// or helper modules that do not load are skipped: strata test reports
// them. p reads the files: a new parser, whose working directory
// (SetWorkDir) dir is relative to.
func WithRunModules(p *configs.Parser, cfg *configs.Config, dir, testDir string) *configs.Config {
	paths, err := Discover(p.Abs(dir), testDir, nil)
	if err != nil || len(paths) == 0 {
		return cfg
	}
	out := *cfg
	out.Children = make(map[string]*configs.Config, len(cfg.Children))
	for k, c := range cfg.Children {
		out.Children[k] = c
	}
	p.SkipCallChecks()
	seen := map[string]bool{}
	for _, path := range paths {
		tf, diags := p.LoadTestFile(inDir(dir, path))
		if tf == nil || diags.HasErrors() {
			continue
		}
		for _, r := range tf.Runs {
			if r.Module == nil || !configs.IsLocalModuleSource(r.Module.Source) || seen[r.Module.Source] {
				continue
			}
			seen[r.Module.Source] = true
			c, cdiags := p.LoadConfig(inDir(dir, r.Module.Source))
			if c == nil || cdiags.HasErrors() {
				continue
			}
			out.Children["test:"+r.Module.Source] = c
		}
	}
	return &out
}

// inDir is the slash-separated path p relative to dir, as written when
// dir is the working directory (./tests/setup stays so, for the file
// names of diagnostics).
func inDir(dir, p string) string {
	if dir == "." {
		return filepath.FromSlash(p)
	}
	return filepath.Join(dir, filepath.FromSlash(p))
}
