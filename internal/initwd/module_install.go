package initwd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/datadir"
)

// ModulesDir is where init installs remote module packages, one directory
// per module call key, as Terraform does: modules in the data directory.
func ModulesDir() string { return datadir.Join("modules") }

// Options configures InstallModules.
type Options struct {
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
// Local sources (./x, ../x) are read in place. Git repositories on this
// machine (git::file://...) are cloned with the git program into
// .terraform/modules/KEY; a module already installed from the same source
// is kept unless opts.Upgrade is set. Every other source needs the network
// and is reported as an error. Records of module calls no longer in the
// configuration are kept, as Terraform keeps them.
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
	old, err := configs.ReadModuleManifest(configs.ManifestPath())
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read modules manifest file",
			Detail:   fmt.Sprintf("Error reading manifest for %s: %s.\n\nRemove the %s directory and run \"strata init\" again to install the modules afresh.", ModulesDir(), err, ModulesDir()),
		}}
	}
	inst := &moduleInstaller{
		ctx:     ctx,
		log:     opts.Log,
		upgrade: opts.Upgrade,
		parser:  configs.NewParser(),
		records: map[string]configs.ModuleRecord{},
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
	// git is the path of the git program, found on first use.
	git string
	// loadDiags holds the diagnostics of loading the modules' files.
	loadDiags hcl.Diagnostics
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
	// pkgDir is the root of the cloned package holding the module, and
	// pkgAddr its address as Terraform prints it; both empty for modules
	// of the working directory.
	pkgDir, pkgAddr string
}

// installCalls installs the modules that mod, at path p, calls, and then
// theirs, depth first with siblings by name. stack holds the identities
// (directory or git source) of the modules above, to stop a module that
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
	kind := classifyModuleSource(call.Source)
	if call.Version != "" && (kind == moduleSourceLocal || kind == moduleSourceGitFile) {
		reason := "a module registry source address must have either three or four slash-separated components"
		if kind == moduleSourceLocal {
			reason = fmt.Sprintf("can't use local directory %q as a module registry address", call.Source)
		}
		return moduleOrigin{}, "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid registry module source address",
			Detail:   fmt.Sprintf("Failed to parse module registry address: %s.\n\nstrata assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", reason),
			Subject:  call.SourceRange.Ptr(),
		}}
	}

	switch kind {
	case moduleSourceLocal:
		src := normalizeLocalModuleSource(call.Source)
		dir := filepath.Join(from.dir, filepath.FromSlash(src))
		if from.pkgDir != "" && !withinDir(from.pkgDir, dir) {
			return moduleOrigin{}, "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Local module path escapes module package",
				Detail:   fmt.Sprintf("The given source directory for %s would be outside of its containing package %q. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.", p, from.pkgAddr),
				Subject:  call.SourceRange.Ptr(),
			}}
		}
		origin := moduleOrigin{dir: dir, pkgDir: from.pkgDir, pkgAddr: from.pkgAddr}
		if rec, ok := i.kept(key, src); ok {
			origin.dir = rec.Dir
			return origin, origin.dir, nil
		}
		i.forget(key)
		// A package an earlier init cloned for this key is stale now.
		os.RemoveAll(filepath.Join(ModulesDir(), key))
		if !hasModuleFiles(dir) {
			return moduleOrigin{}, "", hcl.Diagnostics{unreadableModuleDir(call, dir)}
		}
		i.logf("- %s in %s", key, dir)
		i.records[key] = configs.ModuleRecord{Key: key, Source: src, Dir: dir}
		return origin, dir, nil

	case moduleSourceGitFile:
		gs, err := parseGitFileSource(call.Source)
		if err != nil {
			return moduleOrigin{}, "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid module source address",
				Detail:   fmt.Sprintf("Failed to parse module source address %q: %s.", call.Source, err),
				Subject:  call.SourceRange.Ptr(),
			}}
		}
		pkgDir := filepath.Join(ModulesDir(), key)
		origin := moduleOrigin{dir: pkgDir, pkgDir: pkgDir, pkgAddr: gs.display}
		if gs.subdir != "" {
			origin.dir = filepath.Join(pkgDir, filepath.FromSlash(gs.subdir))
		}
		if rec, ok := i.kept(key, call.Source); ok {
			origin.dir = rec.Dir
			return origin, call.Source, nil
		}
		i.forget(key)
		i.logf("Downloading %s for %s...", gs.display, key)
		if err := i.gitClone(gs, pkgDir); err != nil {
			return moduleOrigin{}, "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Failed to download module",
				Detail: fmt.Sprintf("Could not download module %q (%s:%d) source code from %q: %s.",
					call.Name, call.DeclRange.Filename, call.DeclRange.Start.Line, gs.display, strings.TrimSuffix(err.Error(), ".")),
				Subject: call.SourceRange.Ptr(),
			}}
		}
		if !hasModuleFiles(origin.dir) {
			return moduleOrigin{}, "", hcl.Diagnostics{unreadableModuleDir(call, origin.dir)}
		}
		i.logf("- %s in %s", key, origin.dir)
		i.records[key] = configs.ModuleRecord{Key: key, Source: call.Source, Dir: origin.dir}
		return origin, call.Source, nil

	case moduleSourceOtherLocal:
		return moduleOrigin{}, "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported module source",
			Detail:   fmt.Sprintf("strata cannot install module %q for %s: only local paths starting with ./ or ../ and git repositories given as git::file:// URLs are supported. To use a git repository in a directory on this machine, write the source as \"git::file:///path/to/repo.git\".", call.Source, p),
			Subject:  call.SourceRange.Ptr(),
		}}

	case moduleSourceNetwork:
		return moduleOrigin{}, "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to download module",
			Detail:   fmt.Sprintf("strata cannot fetch module %q for %s because it needs the network: only local paths (./ or ../) and git repositories on this machine (git::file:// URLs) are supported. Copy the module into the configuration and call it with a local path, or clone its repository and use a git::file:// source.", call.Source, p),
			Subject:  call.SourceRange.Ptr(),
		}}

	default:
		panic(fmt.Sprintf("unknown module source kind %d", kind))
	}
}

// kept returns the record of a module an earlier init installed from the
// same source, when it can be used again: not with -upgrade, and not when
// its directory has gone.
func (i *moduleInstaller) kept(key, source string) (configs.ModuleRecord, bool) {
	rec, ok := i.records[key]
	if !ok || i.upgrade || rec.Source != source || !hasModuleFiles(rec.Dir) {
		return configs.ModuleRecord{}, false
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
	if err := os.MkdirAll(filepath.Dir(configs.ManifestPath()), 0o755); err != nil {
		return err
	}
	tmp := configs.ManifestPath() + ".tmp"
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, configs.ManifestPath())
}

func unreadableModuleDir(call *configs.ModuleCall, dir string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unreadable module directory",
		Detail:   fmt.Sprintf("The directory %s for module %q does not exist or has no configuration files (*.tf, *.tf.json).", dir, call.Name),
		Subject:  call.SourceRange.Ptr(),
	}
}

func hasModuleFiles(dir string) bool {
	names, err := configs.ModuleFiles(dir)
	return err == nil && len(names) > 0
}

// withinDir reports whether path is root or inside it.
func withinDir(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// moduleSourceKind says how init can install a module source.
type moduleSourceKind int

const (
	// moduleSourceLocal is a path relative to the calling module.
	moduleSourceLocal moduleSourceKind = iota
	// moduleSourceGitFile is a git repository on this machine,
	// git::file:///path.
	moduleSourceGitFile
	// moduleSourceOtherLocal is another source on this machine that
	// Terraform installs through go-getter (an absolute path, file://, or
	// git:: without file://); strata does not.
	moduleSourceOtherLocal
	// moduleSourceNetwork needs the network: registry addresses, hosted
	// VCS shorthands, http(s), git over the network, s3, gcs...
	moduleSourceNetwork
)

// classifyModuleSource says which kind of source src is.
func classifyModuleSource(src string) moduleSourceKind {
	if configs.IsLocalModuleSource(src) {
		return moduleSourceLocal
	}
	getter, rest := splitForcedGetter(src)
	switch {
	case getter == "git" && strings.HasPrefix(rest, "file://"):
		return moduleSourceGitFile
	case strings.HasPrefix(rest, "file://") || strings.HasPrefix(rest, "/") || filepath.IsAbs(rest):
		return moduleSourceOtherLocal
	default:
		return moduleSourceNetwork
	}
}

// splitForcedGetter splits go-getter's "getter::" prefix off a source, as
// in "git::https://example.com/x.git".
func splitForcedGetter(src string) (getter, rest string) {
	i := strings.Index(src, "::")
	if i <= 0 || strings.ContainsAny(src[:i], "/:?") {
		return "", src
	}
	return src[:i], src[i+2:]
}

// normalizeLocalModuleSource cleans a local source as Terraform does
// before recording it: "./modules/app/" becomes "./modules/app".
func normalizeLocalModuleSource(src string) string {
	src = strings.ReplaceAll(src, `\`, "/")
	clean := path.Clean(src)
	if strings.HasPrefix(clean, "../") {
		return clean
	}
	return "./" + clean
}

// gitFileSource is a parsed git::file:// module source.
type gitFileSource struct {
	// repo is the URL given to git clone: the source without "git::",
	// the subdirectory and the arguments strata interprets.
	repo string
	// ref is the tag, branch or commit to check out; empty for the
	// remote's default branch.
	ref string
	// depth makes a shallow clone when positive.
	depth int
	// subdir is the module's directory inside the repository, or empty.
	subdir string
	// display is the package address as Terraform prints it: the source
	// without the subdirectory.
	display string
}

// parseGitFileSource parses "git::file:///path/repo.git//subdir?ref=v1",
// splitting the subdirectory off as go-getter does: after the first "//"
// that follows the scheme, with any query string staying with the
// repository.
func parseGitFileSource(src string) (gitFileSource, error) {
	_, rest := splitForcedGetter(src)
	pkg, subdir := splitPackageSubdir(rest)
	if subdir != "" {
		subdir = path.Clean(subdir)
		if subdir == "." {
			subdir = ""
		}
		if subdir == ".." || strings.HasPrefix(subdir, "../") || path.IsAbs(subdir) {
			return gitFileSource{}, fmt.Errorf("subdirectory path %q leads outside of the module package", subdir)
		}
	}
	u, err := url.Parse(pkg)
	if err != nil {
		return gitFileSource{}, err
	}
	if u.Path == "" || u.Path == "/" {
		return gitFileSource{}, errors.New("a git::file:// source needs the path of a repository, such as git::file:///srv/modules.git")
	}
	gs := gitFileSource{subdir: subdir, display: "git::" + pkg}
	q := u.Query()
	gs.ref = q.Get("ref")
	if q.Has("ref") && gs.ref == "" {
		return gitFileSource{}, errors.New("the ref argument is empty")
	}
	if strings.HasPrefix(gs.ref, "-") {
		return gitFileSource{}, fmt.Errorf("the ref %q is not a tag, branch or commit", gs.ref)
	}
	if d := q.Get("depth"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return gitFileSource{}, fmt.Errorf("the depth argument %q is not a whole number", d)
		}
		gs.depth = n
	}
	q.Del("ref")
	q.Del("depth")
	for k := range q {
		return gitFileSource{}, fmt.Errorf("the argument %q is not supported; a git::file:// source accepts ref and depth", k)
	}
	u.RawQuery = ""
	gs.repo = u.String()
	return gs, nil
}

// splitPackageSubdir splits "file:///x.git//sub?ref=v1" into the package
// "file:///x.git?ref=v1" and the subdirectory "sub", as go-getter's
// SourceDirSubdir does.
func splitPackageSubdir(src string) (pkg, subdir string) {
	stop := len(src)
	if i := strings.Index(src, "?"); i >= 0 {
		stop = i
	}
	offset := 0
	if i := strings.Index(src[:stop], "://"); i >= 0 {
		offset = i + 3
	}
	i := strings.Index(src[offset:stop], "//")
	if i < 0 {
		return src, ""
	}
	i += offset
	pkg, subdir = src[:i], src[i+2:]
	if q := strings.Index(subdir, "?"); q >= 0 {
		pkg += subdir[q:]
		subdir = subdir[:q]
	}
	return pkg, subdir
}

// gitClone clones a repository into dir, replacing whatever is there, and
// checks out the ref as go-getter does: a shallow clone of the ref when a
// depth is given, else a full clone followed by a checkout, so that tags,
// branches and commits all work.
func (i *moduleInstaller) gitClone(gs gitFileSource, dir string) error {
	if i.git == "" {
		git, err := exec.LookPath("git")
		if err != nil {
			return errors.New("strata runs the git program to install git sources, and git was not found on PATH. Install git, or copy the module into the configuration and call it with a local path")
		}
		i.git = git
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	args := []string{"clone"}
	if gs.depth > 0 {
		args = append(args, "--depth", strconv.Itoa(gs.depth))
		if gs.ref != "" {
			args = append(args, "--branch", gs.ref)
		}
	}
	args = append(args, "--", gs.repo, dir)
	if err := i.runGit("", args...); err != nil {
		os.RemoveAll(dir)
		return err
	}
	if gs.ref != "" && gs.depth == 0 {
		if err := i.runGit(dir, "checkout", gs.ref, "--"); err != nil {
			os.RemoveAll(dir)
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".gitmodules")); err == nil {
		if err := i.runGit(dir, "submodule", "update", "--init", "--recursive"); err != nil {
			os.RemoveAll(dir)
			return err
		}
	}
	return nil
}

func (i *moduleInstaller) runGit(dir string, args ...string) error {
	cmd := exec.CommandContext(i.ctx, i.git, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if ee, ok := err.(*exec.ExitError); ok && msg != "" {
			return fmt.Errorf("git %s exited with %d: %s", args[0], ee.ExitCode(), msg)
		}
		return fmt.Errorf("git %s: %w", args[0], err)
	}
	return nil
}
