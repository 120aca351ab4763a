package command

import (
	"path/filepath"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/moduletest"
)

// withTestModules returns cfg with, beside its own modules, the helper
// modules that the run blocks of its test files load from local paths
// (module { source = "./tests/setup" }), so that init installs the
// providers they need too, as terraform init does. cfg itself is left
// alone. Test files or helper modules that do not load are skipped:
// strata test reports them.
func withTestModules(cfg *configs.Config, testDir string) *configs.Config {
	paths, err := moduletest.Discover(".", testDir, nil)
	if err != nil || len(paths) == 0 {
		return cfg
	}
	out := *cfg
	out.Children = make(map[string]*configs.Config, len(cfg.Children))
	for k, c := range cfg.Children {
		out.Children[k] = c
	}
	p := configs.NewParser()
	p.SkipCallChecks()
	seen := map[string]bool{}
	for _, path := range paths {
		tf, diags := p.LoadTestFile(filepath.FromSlash(path))
		if tf == nil || diags.HasErrors() {
			continue
		}
		for _, r := range tf.Runs {
			if r.Module == nil || !configs.IsLocalModuleSource(r.Module.Source) || seen[r.Module.Source] {
				continue
			}
			seen[r.Module.Source] = true
			c, cdiags := p.LoadConfig(filepath.FromSlash(r.Module.Source))
			if c == nil || cdiags.HasErrors() {
				continue
			}
			out.Children["test:"+r.Module.Source] = c
		}
	}
	return &out
}
