package configs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
)

// Parser reads configuration files and remembers their sources for
// diagnostics.
type Parser struct {
	p *hclparse.Parser
	// skipCallChecks leaves out the checks of module calls against the
	// modules they call; see SkipCallChecks.
	skipCallChecks bool
	// rootDir and rootVariables give the root module's variable values
	// for early evaluation; see SetRootVariables.
	rootDir       string
	rootVariables func(*Module) map[string]cty.Value
	// workDir is the absolute working directory relative paths are read
	// from; see SetWorkDir.
	workDir string
	// dataDir is the data directory as named (TF_DATA_DIR); see
	// SetDataDir.
	dataDir string
}

// SetDataDir makes the parser look for the module manifest init wrote in
// dataDir, the data directory as the user names it (TF_DATA_DIR: relative
// to the working directory, or absolute), rather than in .terraform.
func (p *Parser) SetDataDir(dataDir string) { p.dataDir = dataDir }

// ManifestPath is the module manifest in the parser's data directory,
// relative to the working directory unless the data directory is
// absolute.
func (p *Parser) ManifestPath() string {
	if p.dataDir == "" {
		return ManifestPath()
	}
	return ManifestPathIn(p.dataDir)
}

// SetWorkDir makes the parser read relative paths from workDir, an
// absolute directory, rather than from the process's working directory.
// File names in diagnostics and Module.SourceDir stay as given (relative),
// and path.cwd in early evaluation is workDir.
func (p *Parser) SetWorkDir(workDir string) { p.workDir = workDir }

// Abs is path resolved against the working directory SetWorkDir gave,
// unchanged without one.
func (p *Parser) Abs(path string) string { return p.abs(path) }

// abs is path resolved against the working directory.
func (p *Parser) abs(path string) string {
	if p.workDir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(p.workDir, path)
}

// SkipCallChecks makes LoadConfig leave out the checks of each module call
// against the module it calls (unknown or missing arguments, count or
// for_each on a module with its own provider configurations, overridden
// provider configurations). Terraform makes those checks in validate and
// plan, not in init, so init must load a configuration that fails them.
func (p *Parser) SkipCallChecks() { p.skipCallChecks = true }

// NewParser returns an empty parser.
func NewParser() *Parser {
	return &Parser{p: hclparse.NewParser()}
}

// Files returns the sources of every file parsed so far, keyed by filename,
// for rendering diagnostic snippets.
func (p *Parser) Files() map[string]*hcl.File {
	return p.p.Files()
}

// ParseFile parses one native (.tf, .tfvars) or JSON (.json) file.
func (p *Parser) ParseFile(path string) (*hcl.File, hcl.Diagnostics) {
	src, err := os.ReadFile(p.abs(path))
	if err != nil {
		err = renamed(err, path)
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read file",
			Detail:   fmt.Sprintf("The file %q could not be read: %s.", path, err),
		}}
	}
	return p.ParseSource(src, path)
}

// ParseSource parses src as if read from path.
func (p *Parser) ParseSource(src []byte, path string) (*hcl.File, hcl.Diagnostics) {
	if strings.HasSuffix(path, ".json") {
		return p.p.ParseJSON(src, path)
	}
	if _, parsed := p.p.Files()[path]; !parsed {
		if f, ok := parseChunked(src, path, chunkSize); ok {
			p.p.AddFile(path, f)
			return f, nil
		}
	}
	return p.p.ParseHCL(src, path)
}

// LoadModule loads every configuration file in dir into a Module.
func (p *Parser) LoadModule(dir string) (*Module, hcl.Diagnostics) {
	names, err := ModuleFiles(p.abs(dir))
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read module directory",
			Detail:   fmt.Sprintf("Module directory %s does not exist or cannot be read.", dir),
		}}
	}
	sources := make(map[string][]byte, len(names))
	var diags hcl.Diagnostics
	for _, n := range names {
		src, err := os.ReadFile(p.abs(filepath.Join(dir, n)))
		if err != nil {
			err = renamed(err, filepath.Join(dir, n))
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Failed to read file",
				Detail:   fmt.Sprintf("The file %q could not be read: %s.", filepath.Join(dir, n), err),
			})
			continue
		}
		sources[n] = src
	}
	mod, mdiags := p.LoadModuleFromSources(dir, sources)
	return mod, append(diags, mdiags...)
}

// ModuleFiles lists the configuration files (*.tf, *.tf.json) of the module
// in dir, by name, in the order they are loaded.
func ModuleFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "#") || strings.HasSuffix(n, "~") {
			continue
		}
		names = append(names, n)
	}
	return ConfigFileNames(names), nil
}

// ConfigFileNames returns, sorted, the names among names that are
// configuration files: *.tf and *.tf.json, and OpenTofu's *.tofu and
// *.tofu.json. As in OpenTofu, foo.tofu takes the place of foo.tf, and
// foo.tofu.json that of foo.tf.json, when both are present: a module can
// carry a file for each tool.
func ConfigFileNames(names []string) []string {
	present := map[string]bool{}
	for _, n := range names {
		present[n] = true
	}
	var out []string
	for _, n := range names {
		switch {
		case strings.HasSuffix(n, ".tf"):
			if present[strings.TrimSuffix(n, ".tf")+".tofu"] {
				continue
			}
		case strings.HasSuffix(n, ".tf.json"):
			if present[strings.TrimSuffix(n, ".tf.json")+".tofu.json"] {
				continue
			}
		case strings.HasSuffix(n, ".tofu"), strings.HasSuffix(n, ".tofu.json"):
		default:
			continue
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LoadModuleFromSources loads a module from file sources keyed by file name,
// as if they were in dir: a saved plan's configuration snapshot.
func (p *Parser) LoadModuleFromSources(dir string, sources map[string][]byte) (*Module, hcl.Diagnostics) {
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	sort.Strings(names)
	// Override files come after the primary files, in name order too.
	sort.SliceStable(names, func(i, j int) bool { return !IsOverrideFile(names[i]) && IsOverrideFile(names[j]) })
	var diags hcl.Diagnostics
	mod := newModule(dir)
	mod.workDir = p.workDir
	for _, n := range names {
		mod.hasOverrides = mod.hasOverrides || IsOverrideFile(n)
	}
	for _, n := range names {
		path := filepath.Join(dir, n)
		if dir == "." {
			path = n
		}
		mod.Files = append(mod.Files, path)
		f, fdiags := p.ParseSource(sources[n], path)
		diags = append(diags, fdiags...)
		if f == nil {
			continue
		}
		if IsOverrideFile(n) {
			diags = append(diags, mod.loadOverrideFile(f)...)
		} else {
			diags = append(diags, mod.loadFile(f)...)
		}
	}
	mod.bases = nil // every override file is merged
	diags = append(diags, mod.checkRemoved()...)
	diags = append(diags, mod.checkImportProviders()...)
	var given map[string]cty.Value
	if p.rootVariables != nil && filepath.Clean(dir) == p.rootDir && mod.hasStaticExprs() {
		given = p.rootVariables(mod)
		mod.staticVars = given
	}
	diags = append(diags, mod.evalStaticCalls(given)...)
	return mod, diags
}

// renamed reports a file error under the path as given, not as resolved
// against the working directory.
func renamed(err error, display string) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return &os.PathError{Op: pe.Op, Path: display, Err: pe.Err}
	}
	return err
}
