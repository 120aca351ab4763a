package initwd

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/datadir"
	"github.com/strata-dev/strata/internal/getproviders"
)

// ModulesDir is where init installs remote module packages, one directory
// per module call key, as Terraform does: modules in the data directory
// dataDir, as the user names it (relative to the working directory, or
// absolute; empty means .terraform).
func ModulesDir(dataDir string) string {
	if dataDir == "" {
		dataDir = datadir.Default
	}
	return filepath.Join(dataDir, "modules")
}

// Options configures InstallModules.
type Options struct {
	// WorkDir is the absolute working directory: the root module's, which
	// the relative paths of modules (their directories, the data
	// directory) are in, as the module manifest records them. Empty means
	// the process's.
	WorkDir string
	// DataDir is the data directory as the user names it (TF_DATA_DIR:
	// relative to WorkDir, or absolute); empty means .terraform.
	DataDir string
	// Environ is the environment git runs with (the command's); nil
	// means the process's.
	Environ []string
	// Upgrade installs every module afresh, ignoring what an earlier
	// init installed.
	Upgrade bool
	// Output reports a section header: human is the text for a terminal
	// (colorstring markup allowed), plain the -json "init_output"
	// message with its code. Nil prints nothing.
	Output func(code, human, plain string)
	// Log reports one progress line as it is (sources and directories
	// are user data, never colorstring markup). Nil prints nothing.
	Log func(line string)
	// TestModules are the modules of test files' run blocks
	// (module { source = ... }), installed after the configuration's.
	TestModules []TestModule
	// Registry finds module registries (service discovery, the CLI
	// configuration's host blocks and credentials); nil means discovery
	// with no configuration and no credentials.
	Registry *getproviders.Registry
	// HTTPClient downloads http(s) packages; nil means
	// http.DefaultClient. Give it the CLI configuration's credentials
	// (getproviders.Credentials.Client) so that each host gets its token.
	HTTPClient *http.Client
}

// TestModule is the module a test file's run block uses instead of the
// module under test, under the key configs.TestModuleKey gives.
type TestModule struct {
	Key  string
	Call *configs.ModuleCall
}

// InstallModules installs the modules the root module calls, and those
// they call in turn, and records them in the module manifest
// (.terraform/modules/modules.json) byte for byte as Terraform writes it.
// It returns the files of the modules it read, for diagnostics' snippets.
//
// Local sources (./x, ../x) are read in place. Every other source (see
// addrs.ParseModuleSource) is downloaded into .terraform/modules/KEY:
// registry modules at the newest version their constraint allows, git
// repositories with the git program, http(s) archives, absolute paths as
// symbolic links. A module already installed from the same source (and,
// for a registry module, at a version its constraint still allows) is
// kept unless opts.Upgrade is set. Records of module calls no longer in
// the configuration are kept, as Terraform keeps them.
//
// The manifest is written even when some module fails, so that what was
// installed is not fetched again.
func InstallModules(ctx context.Context, root *configs.Module, opts Options) (map[string]*hcl.File, hcl.Diagnostics) {
	if len(root.ModuleCalls) == 0 && len(opts.TestModules) == 0 {
		return nil, nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.Output != nil {
		if opts.Upgrade {
			opts.Output("upgrading_modules_message", "[reset][bold]Upgrading modules...[reset]\n", "Upgrading modules...")
		} else {
			opts.Output("initializing_modules_message", "[reset][bold]Initializing modules...[reset]\n", "Initializing modules...")
		}
	}
	inst := &moduleInstaller{
		ctx:        ctx,
		log:        opts.Log,
		upgrade:    opts.Upgrade,
		parser:     configs.NewParser(),
		records:    map[string]configs.ModuleRecord{},
		reg:        opts.Registry,
		client:     opts.HTTPClient,
		workDir:    opts.WorkDir,
		modulesDir: ModulesDir(opts.DataDir),
		environ:    opts.Environ,
	}
	inst.parser.SetWorkDir(opts.WorkDir)
	old, err := configs.ReadModuleManifest(inst.abs(inst.manifestPath()))
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read modules manifest file",
			Detail:   fmt.Sprintf("Error reading manifest for %s: %s.\n\nRemove the %s directory and run \"strata init\" again to install the modules afresh.", inst.modulesDir, err, inst.modulesDir),
		}}
	}
	for _, r := range old.Modules {
		inst.records[r.Key] = r
	}
	inst.records[""] = configs.ModuleRecord{Key: "", Source: "", Dir: "."}

	diags := inst.installCalls(root, nil, moduleOrigin{dir: "."}, []string{"."})
	for _, tm := range opts.TestModules {
		// A test file's helper module is no call of the root module: it
		// may call the module under test (source = "../.."), as a
		// wrapper, without calling itself.
		diags = append(diags, inst.installCall(tm.Call, addrs.Module(strings.Split(tm.Key, ".")), moduleOrigin{dir: "."}, nil)...)
	}
	// Problems in the modules' files stop init here only when they are
	// errors; otherwise loading the whole configuration afterwards reports
	// them, and they would be shown twice.
	if inst.loadDiags.HasErrors() {
		diags = append(diags, inst.loadDiags...)
	}
	if err := inst.writeManifest(); err != nil {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to write the module manifest", Detail: err.Error()})
	}
	return inst.parser.Files(), diags
}

// moduleInstaller walks the module calls of a configuration, installing
// each module and recording where it is.
type moduleInstaller struct {
	ctx     context.Context
	log     func(line string)
	upgrade bool
	parser  *configs.Parser
	// records is the manifest being built: what was there before, with
	// what this run installs replacing it, keyed by module key.
	records map[string]configs.ModuleRecord
	// reg finds module registries; client downloads http(s) packages.
	reg    *getproviders.Registry
	client *http.Client
	// loadDiags holds the diagnostics of loading the modules' files.
	loadDiags hcl.Diagnostics
	// workDir is the absolute working directory the relative paths are
	// in (empty: the process's); modulesDir is where packages go,
	// relative to it unless absolute.
	workDir, modulesDir string
	// environ is the environment git runs with; nil means the process's.
	environ []string
}

// abs is p resolved against the working directory, for the file system;
// messages and the manifest keep p.
func (i *moduleInstaller) abs(p string) string {
	if i.workDir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(i.workDir, p)
}

// manifestPath is the module manifest, beside the packages.
func (i *moduleInstaller) manifestPath() string {
	return filepath.Join(i.modulesDir, "modules.json")
}

// hasModuleFiles reports whether dir holds configuration files.
func (i *moduleInstaller) hasModuleFiles(dir string) bool {
	names, err := configs.ModuleFiles(i.abs(dir))
	return err == nil && len(names) > 0
}

// logf prints one progress line, as it is: a "log" message with -json.
// Paths and sources are not colorstring markup.
func (i *moduleInstaller) logf(format string, args ...any) {
	if i.log != nil {
		i.log(fmt.Sprintf(format, args...))
	}
}

// moduleOrigin says where a module's files are: its directory and, for a
// module inside a package cloned from git, the package's directory and
// address, which its local calls must not leave.
type moduleOrigin struct {
	dir string
	// pkgDir is the root of the downloaded package holding the module,
	// and pkgAddr its address as Terraform prints it; both empty for
	// modules of the working directory.
	pkgDir, pkgAddr string
}

// installCalls installs the modules that mod, at path p, calls, and then
// theirs, depth first with siblings by name. stack holds the identities
// (directory or recorded source) of the modules above, to stop a module that
// calls itself.
func (i *moduleInstaller) installCalls(mod *configs.Module, p addrs.Module, from moduleOrigin, stack []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	names := make([]string, 0, len(mod.ModuleCalls))
	for n := range mod.ModuleCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		call := mod.ModuleCalls[name]
		if call.Source == "" {
			continue // reported when the call was decoded
		}
		diags = append(diags, i.installCall(call, p.Child(name), from, stack)...)
	}
	return diags
}

// installCall installs the module of one call, at path cp, and then the
// modules it calls.
func (i *moduleInstaller) installCall(call *configs.ModuleCall, cp addrs.Module, from moduleOrigin, stack []string) hcl.Diagnostics {
	origin, identity, diags := i.installModule(call, cp, from)
	if diags.HasErrors() {
		return diags
	}
	if slices.Contains(stack, identity) {
		delete(i.records, configs.ManifestKey(cp))
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Module calls itself",
			Detail:   fmt.Sprintf("The module at %s calls itself through %s, which would never end.", origin.dir, cp),
			Subject:  call.SourceRange.Ptr(),
		})
	}
	child, mdiags := i.parser.LoadModule(origin.dir)
	i.loadDiags = append(i.loadDiags, mdiags...)
	if child == nil {
		return diags
	}
	return append(diags, i.installCalls(child, cp, origin, append(stack, identity))...)
}

// installModule makes the module of one call available, unless an earlier
// init already did, and returns where it is and its identity for the
// recursion check. Its progress lines are printed raw: sources and
// directories are user data, which colorstring must not read as markup.
func (i *moduleInstaller) installModule(call *configs.ModuleCall, p addrs.Module, from moduleOrigin) (moduleOrigin, string, hcl.Diagnostics) {
	key := configs.ManifestKey(p)
	// With a version, the source must be a registry address: Terraform
	// reads it as one before anything else.
	if call.Version != "" && !addrs.IsModuleRegistrySource(call.Source) {
		reason := addrs.ModuleRegistryAddrProblem(call.Source)
		if configs.IsLocalModuleSource(call.Source) {
			reason = fmt.Sprintf("can't use local directory %q as a module registry address", call.Source)
		}
		return moduleOrigin{}, "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid registry module source address",
			Detail:   fmt.Sprintf("Failed to parse module registry address: %s.\n\nstrata assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", reason),
			Subject:  call.SourceRange.Ptr(),
		}}
	}

	src, err := addrs.ParseModuleSource(call.Source)
	if err != nil {
		return moduleOrigin{}, "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid module source address",
			Detail:   err.Error(),
			Subject:  call.SourceRange.Ptr(),
		}}
	}
	switch src := src.(type) {
	case addrs.ModuleSourceLocal:
		dir := filepath.Join(from.dir, filepath.FromSlash(string(src)))
		if from.pkgDir != "" && !withinDir(from.pkgDir, dir) {
			return moduleOrigin{}, "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Local module path escapes module package",
				Detail:   fmt.Sprintf("The given source directory for %s would be outside of its containing package %q. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.", p, from.pkgAddr),
				Subject:  call.SourceRange.Ptr(),
			}}
		}
		origin := moduleOrigin{dir: dir, pkgDir: from.pkgDir, pkgAddr: from.pkgAddr}
		if rec, ok := i.kept(key, src.String(), nil); ok {
			origin.dir = rec.Dir
			return origin, origin.dir, nil
		}
		i.forget(key)
		// A package an earlier init downloaded for this key is stale now.
		os.RemoveAll(i.abs(filepath.Join(i.modulesDir, key)))
		if !i.hasModuleFiles(dir) {
			return moduleOrigin{}, "", hcl.Diagnostics{unreadableModuleDir(call, dir)}
		}
		i.logf("- %s in %s", key, dir)
		i.records[key] = configs.ModuleRecord{Key: key, Source: src.String(), Dir: dir}
		return origin, dir, nil

	case addrs.ModuleSourceRegistry:
		return i.installRegistryModule(call, key, src)

	case addrs.ModuleSourceRemote:
		pkgDir := filepath.Join(i.modulesDir, key)
		if rec, ok := i.kept(key, src.String(), nil); ok {
			return moduleOrigin{dir: rec.Dir, pkgDir: pkgDir, pkgAddr: src.ForDisplay()}, src.String(), nil
		}
		i.forget(key)
		i.logf("Downloading %s for %s...", src.ForDisplay(), key)
		sub, err := i.download(src, pkgDir)
		if err != nil {
			return moduleOrigin{}, "", hcl.Diagnostics{downloadFailed(call, src.ForDisplay(), err, false)}
		}
		return i.installed(call, key, src.String(), "", moduleOrigin{dir: joinPkgDir(pkgDir, sub), pkgDir: pkgDir, pkgAddr: src.ForDisplay()})

	default:
		panic(fmt.Sprintf("unknown module source type %T", src))
	}
}

// installRegistryModule installs the newest version of a registry module
// that meets the call's constraints, unless an earlier init installed one
// that still does (and -upgrade is not set).
func (i *moduleInstaller) installRegistryModule(call *configs.ModuleCall, key string, src addrs.ModuleSourceRegistry) (moduleOrigin, string, hcl.Diagnostics) {
	pkgDir := filepath.Join(i.modulesDir, key)
	var constraints version.Constraints
	if call.Version != "" {
		c, err := version.NewConstraint(call.Version)
		if err != nil {
			return moduleOrigin{}, "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid version constraint",
				Detail:   "This string does not use correct version constraint syntax.",
				Subject:  call.VersionRange.Ptr(),
			}}
		}
		constraints = c
	}
	where := fmt.Sprintf("%s:%d", call.DeclRange.Filename, call.DeclRange.Start.Line)
	if rec, ok := i.kept(key, src.String(), constraints); ok {
		return moduleOrigin{dir: rec.Dir, pkgDir: pkgDir, pkgAddr: src.PackageAddr()}, src.String(), nil
	}
	i.forget(key)
	reg := i.registry()
	vs, err := reg.versions(i.ctx, src)
	if err != nil {
		if errors.Is(err, errModuleNotFound) {
			return moduleOrigin{}, "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Module not found",
				Detail:   fmt.Sprintf("Module %q (from %s) cannot be found in the module registry at %s.", call.Name, where, src.Host),
				Subject:  call.DeclRange.Ptr(),
			}}
		}
		var unreachable getproviders.ErrHostUnreachable
		if errors.As(err, &unreachable) {
			err = unreachable.Err
		}
		return moduleOrigin{}, "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Error accessing remote module registry",
			Detail:   fmt.Sprintf("Failed to retrieve available versions for module %q (%s) from %s: %s.", call.Name, where, src.Host, err),
			Subject:  call.DeclRange.Ptr(),
		}}
	}
	v := selectVersion(vs, constraints)
	if v == nil {
		detail := fmt.Sprintf("There is no available version of module %q (%s) which matches the given version constraint.", src.PackageAddr(), where)
		if len(vs) > 0 {
			detail += fmt.Sprintf(" The newest available version is %s.", vs[0])
		}
		return moduleOrigin{}, "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unresolvable module version constraint",
			Detail:   detail,
			Subject:  call.DeclRange.Ptr(),
		}}
	}
	i.logf("Downloading %s %s for %s...", src.PackageAddr(), v, key)
	loc, err := reg.location(i.ctx, src, v)
	if err != nil {
		return moduleOrigin{}, "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Error accessing remote module registry",
			Detail:   fmt.Sprintf("Failed to retrieve a download URL for %s %s from %s: %s.", src.PackageAddr(), v, src.Host, err),
			Subject:  call.DeclRange.Ptr(),
		}}
	}
	sub, err := i.download(loc, pkgDir)
	if err != nil {
		return moduleOrigin{}, "", hcl.Diagnostics{downloadFailed(call, loc.String(), err, true)}
	}
	dir := joinPkgDir(pkgDir, joinSubdir(sub, src.Subdir))
	return i.installed(call, key, src.String(), v.String(), moduleOrigin{dir: dir, pkgDir: pkgDir, pkgAddr: src.PackageAddr()})
}

// installed checks a downloaded module has configuration files and
// records it.
func (i *moduleInstaller) installed(call *configs.ModuleCall, key, source, ver string, origin moduleOrigin) (moduleOrigin, string, hcl.Diagnostics) {
	if !i.hasModuleFiles(origin.dir) {
		return moduleOrigin{}, "", hcl.Diagnostics{unreadableModuleDir(call, origin.dir)}
	}
	i.logf("- %s in %s", key, origin.dir)
	i.records[key] = configs.ModuleRecord{Key: key, Source: source, Version: ver, Dir: origin.dir}
	return origin, source, nil
}

// download fetches a package into pkgDir, replacing what is there only
// once the download has succeeded: it is made in a temporary directory
// beside it, inside the modules directory. It returns the subdirectory
// of pkgDir the source selects.
func (i *moduleInstaller) download(src addrs.ModuleSourceRemote, pkgDir string) (string, error) {
	if err := os.MkdirAll(i.abs(i.modulesDir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(i.abs(i.modulesDir), ".download-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	f := &fetcher{ctx: i.ctx, client: i.client, git: gitRunner{ctx: i.ctx, environ: i.environ}}
	staged := filepath.Join(tmp, "pkg")
	sub, err := f.fetch(src, staged)
	if err != nil {
		// Name the package's own directory, as git's "Cloning into" does
		// in Terraform's messages, not the staging one.
		return "", errors.New(strings.ReplaceAll(err.Error(), staged, pkgDir))
	}
	if err := os.RemoveAll(i.abs(pkgDir)); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(i.abs(pkgDir)), 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(staged, i.abs(pkgDir)); err != nil {
		return "", err
	}
	return sub, nil
}

// registry returns the module registry client.
func (i *moduleInstaller) registry() *moduleRegistry {
	if i.reg == nil {
		i.reg = getproviders.NewRegistry(nil, nil, os.Getenv)
	}
	return &moduleRegistry{reg: i.reg}
}

// joinPkgDir is the directory of a module in a package.
func joinPkgDir(pkgDir, sub string) string {
	if sub == "" {
		return pkgDir
	}
	return filepath.Join(pkgDir, filepath.FromSlash(sub))
}

// downloadFailed reports a package that could not be downloaded. As in
// Terraform, the error ends the detail as it is for a module's own
// source, and with a full stop for a registry module's package.
func downloadFailed(call *configs.ModuleCall, from string, err error, fullStop bool) *hcl.Diagnostic {
	msg := strings.TrimSpace(err.Error())
	if fullStop {
		msg = strings.TrimSuffix(msg, ".") + "."
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Failed to download module",
		Detail:   fmt.Sprintf("Could not download module %q (%s:%d) source code from %q: %s", call.Name, call.DeclRange.Filename, call.DeclRange.Start.Line, from, msg),
		Subject:  call.DeclRange.Ptr(),
	}
}

// kept returns the record of a module an earlier init installed from the
// same source, when it can be used again: not with -upgrade, not when its
// directory has gone, and for a registry module only when its version
// still meets the constraints.
func (i *moduleInstaller) kept(key, source string, constraints version.Constraints) (configs.ModuleRecord, bool) {
	rec, ok := i.records[key]
	if !ok || i.upgrade || rec.Source != source || !i.hasModuleFiles(rec.Dir) {
		return configs.ModuleRecord{}, false
	}
	if constraints != nil {
		v, err := version.NewVersion(rec.Version)
		if err != nil || !constraints.Check(v) {
			return configs.ModuleRecord{}, false
		}
	}
	return rec, true
}

// forget drops the record of key and of every module below it: replacing
// a module invalidates what it called.
func (i *moduleInstaller) forget(key string) {
	delete(i.records, key)
	for k := range i.records {
		if strings.HasPrefix(k, key+".") {
			delete(i.records, k)
		}
	}
}

// writeManifest writes the records sorted by key, as Terraform does.
func (i *moduleInstaller) writeManifest() error {
	mf := &configs.ModuleManifest{Modules: make([]configs.ModuleRecord, 0, len(i.records))}
	for _, r := range i.records {
		mf.Modules = append(mf.Modules, r)
	}
	sort.Slice(mf.Modules, func(a, b int) bool { return mf.Modules[a].Key < mf.Modules[b].Key })
	src, err := mf.Marshal()
	if err != nil {
		return err
	}
	path := i.abs(i.manifestPath())
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func unreadableModuleDir(call *configs.ModuleCall, dir string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unreadable module directory",
		Detail:   fmt.Sprintf("The directory %s for module %q does not exist or has no configuration files (*.tf, *.tf.json).", dir, call.Name),
		Subject:  call.SourceRange.Ptr(),
	}
}

// withinDir reports whether path is root or inside it.
func withinDir(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
