package configs

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
)

// Config is a node of the module tree: the root module, or a module called
// from its parent's module block.
type Config struct {
	Root   *Config
	Parent *Config
	// Path is the static module path, empty for the root.
	Path   addrs.Module
	Module *Module
	// Call is the module block in the parent that loaded this module; nil
	// for the root.
	Call     *ModuleCall
	Children map[string]*Config

	// manifestKey and manifestSrc are the module manifest the
	// configuration was loaded with (the root only), for SnapshotFiles:
	// its path relative to the working directory and its contents.
	manifestKey string
	manifestSrc []byte
}

// NewRootConfig wraps a single module as a configuration with no child
// modules.
func NewRootConfig(mod *Module) *Config {
	c := &Config{Module: mod, Children: map[string]*Config{}}
	c.Root = c
	return c
}

// Descendant returns the configuration at a static module path, or nil.
func (c *Config) Descendant(p addrs.Module) *Config {
	cur := c
	for _, name := range p {
		cur = cur.Children[name]
		if cur == nil {
			return nil
		}
	}
	return cur
}

// DeepEach calls fn for c and every module below it, parents before
// children and siblings by name.
func (c *Config) DeepEach(fn func(*Config)) {
	fn(c)
	names := make([]string, 0, len(c.Children))
	for n := range c.Children {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c.Children[n].DeepEach(fn)
	}
}

// Resource returns the resource block at addr, or nil.
func (c *Config) Resource(p addrs.Module, r addrs.Resource) *Resource {
	m := c.Descendant(p)
	if m == nil {
		return nil
	}
	switch r.Mode {
	case addrs.DataResourceMode:
		return m.Module.DataResources[r.String()]
	case addrs.EphemeralResourceMode:
		return m.Module.EphemeralResources[r.String()]
	}
	return m.Module.ManagedResources[r.String()]
}

// moduleReader reads the configuration files of one module directory:
// from disk, or from a saved plan's snapshot.
type moduleReader interface {
	// files returns the sources of the module's configuration files,
	// keyed by file name, or an error when the directory cannot be read.
	files(dir string) (map[string][]byte, error)
	// manifest returns the module manifest init wrote, or nil, and its
	// path and contents as read.
	manifest() (mf *ModuleManifest, key string, src []byte)
}

// LoadConfig loads the root module in dir and every module it calls,
// recursively. Local sources (./x, ../x) are read from disk relative to
// the calling module; other sources must have been installed by init.
func (p *Parser) LoadConfig(dir string) (*Config, hcl.Diagnostics) {
	return p.loadConfig(dir, diskReader{root: dir, workDir: p.workDir, manifestPath: p.ManifestPath()})
}

// LoadConfigFromSnapshot loads a configuration from file sources keyed by
// path relative to the working directory, as SnapshotFiles returned them.
func (p *Parser) LoadConfigFromSnapshot(sources map[string][]byte) (*Config, hcl.Diagnostics) {
	return p.loadConfig(".", snapshotReader{sources: sources, manifestKey: filepath.ToSlash(p.ManifestPath())})
}

func (p *Parser) loadConfig(dir string, r moduleReader) (*Config, hcl.Diagnostics) {
	mod, diags := p.loadModuleWith(dir, r)
	if mod == nil {
		return nil, diags
	}
	root := NewRootConfig(mod)
	diags = append(diags, rootEphemeralOutputs(mod)...)
	mf, key, src := r.manifest()
	root.manifestKey, root.manifestSrc = key, src
	diags = append(diags, p.loadChildren(root, r, mf, nil)...)
	root.DeepEach(func(c *Config) {
		diags = append(diags, checkProviderInstances(c)...)
	})
	return root, diags
}

func (p *Parser) loadModuleWith(dir string, r moduleReader) (*Module, hcl.Diagnostics) {
	sources, err := r.files(dir)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read module directory",
			Detail:   fmt.Sprintf("Module directory %s does not exist or cannot be read.", dir),
		}}
	}
	return p.LoadModuleFromSources(dir, sources)
}

// loadChildren loads the modules c calls. stack holds the directories of
// the calls above, to stop a module that calls itself.
func (p *Parser) loadChildren(c *Config, r moduleReader, mf *ModuleManifest, stack []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	names := make([]string, 0, len(c.Module.ModuleCalls))
	for n := range c.Module.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		call := c.Module.ModuleCalls[name]
		if call.Source == "" {
			continue // reported when decoding
		}
		path := append(append(addrs.Module{}, c.Path...), name)
		dir, ddiags := resolveModuleDir(c, call, path, mf)
		diags = append(diags, ddiags...)
		if ddiags.HasErrors() {
			continue
		}
		for _, d := range stack {
			if d == dir {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Module calls itself",
					Detail:   fmt.Sprintf("The module at %s calls itself through %s, which would never end.", dir, path),
					Subject:  call.SourceRange.Ptr(),
				})
				return diags
			}
		}
		sources, err := r.files(dir)
		if err != nil || len(sources) == 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unreadable module directory",
				Detail:   fmt.Sprintf("The directory %s for module %q does not exist or has no configuration files (*.tf, *.tf.json).", dir, name),
				Subject:  call.SourceRange.Ptr(),
			})
			continue
		}
		mod, mdiags := p.LoadModuleFromSources(dir, sources)
		diags = append(diags, mdiags...)
		child := &Config{Root: c.Root, Parent: c, Path: path, Module: mod, Call: call, Children: map[string]*Config{}}
		c.Children[name] = child
		diags = append(diags, p.loadChildren(child, r, mf, append(stack, c.Module.SourceDir))...)
		// After the children: the check looks for provider blocks in
		// every module below.
		if !p.skipCallChecks {
			diags = append(diags, checkModuleCall(child)...)
		}
	}
	return diags
}

// resolveModuleDir finds the directory holding a called module: a local
// path relative to the caller, or where init installed a remote source.
func resolveModuleDir(parent *Config, call *ModuleCall, p addrs.Module, mf *ModuleManifest) (string, hcl.Diagnostics) {
	if call.IsLocalSource() {
		if call.Version != "" {
			return "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid registry module source address",
				Detail:   "Cannot use a version constraint with a local module source. The version argument is only for modules from a module registry.",
				Subject:  call.SourceRange.Ptr(),
			}}
		}
		return joinModuleDir(parent.Module.SourceDir, call.Source), nil
	}
	if rec, ok := mf.Record(ManifestKey(p)); ok {
		if rec.Source != NormalizeModuleSource(call.Source) {
			return "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Module source has changed",
				Detail:   "The source address was changed since this module was installed. Run \"strata init\" to install all modules required by this configuration.",
				Subject:  call.SourceRange.Ptr(),
			}}
		}
		if call.Version != "" && rec.Version != "" {
			c, cerr := version.NewConstraint(call.Version)
			v, verr := version.NewVersion(rec.Version)
			if cerr == nil && verr == nil && !c.Check(v) {
				return "", hcl.Diagnostics{{
					Severity: hcl.DiagError,
					Summary:  "Module version requirements have changed",
					Detail:   fmt.Sprintf("The version requirements have changed since this module was installed and the installed version (%s) is no longer acceptable. Run \"strata init\" to install all modules required by this configuration.", rec.Version),
					Subject:  call.SourceRange.Ptr(),
				}}
			}
		}
		return rec.Dir, nil
	}
	return "", hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Module not installed",
		Detail:   "This module is not yet installed. Run \"strata init\" to install all modules required by this configuration.",
		Subject:  call.DeclRange.Ptr(), // as in Terraform
	}}
}

// joinModuleDir joins a local module source to its caller's directory,
// keeping the result relative when the caller's is.
func joinModuleDir(base, src string) string {
	if filepath.IsAbs(base) {
		return filepath.Join(base, filepath.FromSlash(src))
	}
	return filepath.FromSlash(path.Clean(path.Join(filepath.ToSlash(base), src)))
}

// checkModuleCall reports module calls that cannot work with the module
// they load: unknown arguments, missing required variables, and count,
// for_each or depends_on on a module that configures its own providers.
func checkModuleCall(c *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	call := c.Call
	for _, name := range sortedAttrNames(call.Inputs) {
		if _, ok := c.Module.Variables[name]; !ok {
			attr := call.Inputs[name]
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An argument named %q is not expected here.", name),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	for _, name := range sortedMapKeys(c.Module.Variables) {
		v := c.Module.Variables[name]
		if _, ok := call.Inputs[name]; !ok && v.Required() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The argument %q is required, but no definition was found.", name),
				Subject:  call.MissingItemRange.Ptr(),
			})
		}
	}
	if call.Count != nil || call.ForEach != nil || len(call.DependsOn) > 0 {
		// Empty provider blocks are proxies, not configurations: Terraform
		// allows them here.
		var withProvider *Provider
		var withPath addrs.Module
		c.DeepEach(func(d *Config) {
			for _, k := range sortedMapKeys(d.Module.ProviderConfigs) {
				if pc := d.Module.ProviderConfigs[k]; withProvider == nil && !pc.IsEmpty() {
					withProvider, withPath = pc, d.Path
				}
			}
		})
		if withProvider != nil {
			// As in Terraform, the subject is the argument that rules the
			// provider configurations out, in the caller.
			var subject hcl.Range
			switch {
			case call.Count != nil:
				subject = call.Count.Range()
			case call.ForEach != nil:
				subject = call.ForEach.Range()
			default:
				subject = call.DependsOn[0].SourceRange()
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Module is incompatible with count, for_each, and depends_on",
				Detail:   fmt.Sprintf("The module at %s is a legacy module which contains its own local provider configurations (%s), and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module %q, consider updating this module to instead expect provider configurations to be passed by its caller.", withPath, withProvider.DeclRange, withSource(c, withPath)),
				Subject:  subject.Ptr(),
			})
		}
	}
	for _, pp := range call.Providers {
		if pc, ok := c.Module.ProviderConfigs[pp.InChild.String()]; ok && !pc.IsEmpty() {
			caller := "the root module"
			if !c.Path.Parent().IsRoot() {
				caller = c.Path.Parent().String()
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot override provider configuration",
				Detail:   fmt.Sprintf("The configuration of %s has its own local configuration for %s, and so it cannot accept an overridden configuration provided by %s.", c.Path, pp.InChild, caller),
				Subject:  pp.InChild.NameRange.Ptr(),
			})
		}
		if !c.declaresProviderRef(pp.InChild) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Reference to undefined provider",
				Detail:   fmt.Sprintf("There is no explicit declaration for local provider name %q in %s, so strata is assuming you mean to pass a configuration for %q.\n\nIf you also control the child module, add a required_providers entry named %q with the source address %q.", pp.InChild.Name, c.Path, c.Module.ProviderForLocalName(pp.InChild.Name).ForDisplay(), pp.InChild.Name, c.Module.ProviderForLocalName(pp.InChild.Name).ForDisplay()),
				Subject:  pp.InChild.NameRange.Ptr(),
			})
		}
	}
	return diags
}

// withSource returns the source address of the call of the module at p, a
// descendant of c or c itself.
func withSource(c *Config, p addrs.Module) string {
	if d := c.Root.Descendant(p); d != nil && d.Call != nil {
		return d.Call.Source
	}
	return c.Call.Source
}

// declaresProviderRef reports whether the module declares the provider
// configuration ref: a required_providers entry, with its alias among the
// configuration_aliases when it has one.
func (c *Config) declaresProviderRef(ref ProviderRef) bool {
	rp, ok := c.Module.RequiredProviders[ref.Name]
	if !ok {
		_, ok = c.Module.ProviderConfigs[ref.String()]
		return ok
	}
	if ref.Alias == "" {
		return true
	}
	for _, a := range rp.ConfigurationAliases {
		if a.Alias == ref.Alias {
			return true
		}
	}
	_, ok = c.Module.ProviderConfigs[ref.String()]
	return ok
}

func sortedAttrNames(attrs hcl.Attributes) []string {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func sortedMapKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// SnapshotFiles returns the sources of every configuration file in the
// tree, keyed by path relative to the working directory, plus the module
// manifest the configuration was loaded with, when there was one: what a
// saved plan carries.
func (c *Config) SnapshotFiles(files map[string]*hcl.File) map[string][]byte {
	out := map[string][]byte{}
	if c.Root != nil && c.Root.manifestSrc != nil {
		out[c.Root.manifestKey] = c.Root.manifestSrc
	}
	c.DeepEach(func(d *Config) {
		for _, name := range d.Module.Files {
			if f, ok := files[name]; ok {
				out[filepath.ToSlash(name)] = f.Bytes
			}
		}
	})
	return out
}

// diskReader reads modules from disk: relative paths from workDir (the
// process's directory when empty), the module manifest at manifestPath
// (relative to root unless absolute).
type diskReader struct{ root, workDir, manifestPath string }

// abs is path resolved against the working directory.
func (r diskReader) abs(path string) string {
	if r.workDir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(r.workDir, path)
}

func (r diskReader) files(dir string) (map[string][]byte, error) {
	names, err := ModuleFiles(r.abs(dir))
	if err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(names))
	for _, n := range names {
		src, err := readFile(r.abs(filepath.Join(dir, n)))
		if err != nil {
			return nil, renamed(err, filepath.Join(dir, n))
		}
		out[n] = src
	}
	return out, nil
}

func (r diskReader) manifest() (*ModuleManifest, string, []byte) {
	key := r.manifestPath
	if !filepath.IsAbs(key) {
		key = filepath.Join(r.root, key)
	}
	src, err := readFile(r.abs(key))
	if err != nil {
		return nil, "", nil
	}
	mf, _ := parseModuleManifest(src)
	if mf == nil {
		return nil, "", nil
	}
	// Directories are recorded relative to the working directory, which
	// is the root module's.
	for i, rec := range mf.Modules {
		if !filepath.IsAbs(rec.Dir) {
			mf.Modules[i].Dir = filepath.Join(r.root, rec.Dir)
		}
	}
	return mf, filepath.ToSlash(key), src
}

// snapshotReader serves a saved plan's files, keyed by slash-separated
// path relative to the working directory; manifestKey is the module
// manifest's.
type snapshotReader struct {
	sources     map[string][]byte
	manifestKey string
}

func (r snapshotReader) files(dir string) (map[string][]byte, error) {
	dir = path.Clean(filepath.ToSlash(dir))
	out := map[string][]byte{}
	var names []string
	for k := range r.sources {
		if path.Dir(k) == dir {
			names = append(names, path.Base(k))
		}
	}
	for _, n := range ConfigFileNames(names) {
		out[n] = r.sources[path.Join(dir, n)]
	}
	if len(out) == 0 && dir != "." {
		return nil, fmt.Errorf("no files for %s in the plan's configuration snapshot", dir)
	}
	return out, nil
}

func (r snapshotReader) manifest() (*ModuleManifest, string, []byte) {
	src, ok := r.sources[r.manifestKey]
	if !ok {
		return nil, "", nil
	}
	mf, _ := parseModuleManifest(src)
	return mf, r.manifestKey, src
}
