package addrs

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// DefaultModuleRegistryHost is the host of registry module addresses
// that name none: "hashicorp/consul/aws" is
// registry.terraform.io/hashicorp/consul/aws.
const DefaultModuleRegistryHost = "registry.terraform.io"

// ModuleSource is a module call's source address, parsed: a
// ModuleSourceLocal, ModuleSourceRegistry or ModuleSourceRemote. String
// returns the address as Terraform records it in the module manifest.
type ModuleSource interface {
	String() string
	// ForDisplay is the address of the package to download, as init's
	// "Downloading ..." line names it: without the subdirectory.
	ForDisplay() string
	moduleSource()
}

// ModuleSourceLocal is a path relative to the calling module's
// directory, cleaned: "./modules/app" or "../shared".
type ModuleSourceLocal string

// ModuleSourceRegistry is a module in a module registry:
// [HOST/]NAMESPACE/NAME/TARGETSYSTEM[//SUBDIR].
type ModuleSourceRegistry struct {
	Host, Namespace, Name, TargetSystem string
	// Subdir is the module's directory inside the package, or "".
	Subdir string
}

// ModuleSourceRemote is a package that go-getter style installers fetch:
// a git repository, an http(s) URL (an archive, or a page pointing
// elsewhere), or a directory on this machine (file://).
type ModuleSourceRemote struct {
	// Getter is how to fetch Package: "git", "http", "https", "file", or
	// another forced getter ("hg", "s3", "gcs") that strata does not
	// support.
	Getter string
	// Package is the package's address as recorded, with a forced
	// getter prefix ("git::") and the query string, without the
	// subdirectory.
	Package string
	// Subdir is the module's directory inside the package, or "".
	Subdir string
}

func (ModuleSourceLocal) moduleSource()    {}
func (ModuleSourceRegistry) moduleSource() {}
func (ModuleSourceRemote) moduleSource()   {}

func (s ModuleSourceLocal) String() string     { return string(s) }
func (s ModuleSourceLocal) ForDisplay() string { return string(s) }

// PackageAddr is HOST/NAMESPACE/NAME/TARGETSYSTEM.
func (s ModuleSourceRegistry) PackageAddr() string {
	return s.Host + "/" + s.Namespace + "/" + s.Name + "/" + s.TargetSystem
}

func (s ModuleSourceRegistry) String() string {
	if s.Subdir != "" {
		return s.PackageAddr() + "//" + s.Subdir
	}
	return s.PackageAddr()
}

func (s ModuleSourceRegistry) ForDisplay() string { return s.PackageAddr() }

func (s ModuleSourceRemote) String() string {
	if s.Subdir == "" {
		return s.Package
	}
	// The subdirectory goes before the query string, as go-getter
	// writes it.
	pkg, query, hasQuery := strings.Cut(s.Package, "?")
	out := pkg + "//" + s.Subdir
	if hasQuery {
		out += "?" + query
	}
	return out
}

func (s ModuleSourceRemote) ForDisplay() string { return s.Package }

// URL is the package's URL without the forced getter prefix.
func (s ModuleSourceRemote) URL() string {
	if i := strings.Index(s.Package, "::"); i > 0 && !strings.ContainsAny(s.Package[:i], "/:?") {
		return s.Package[i+2:]
	}
	return s.Package
}

var (
	registryNamePart   = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$`)
	registrySystemPart = regexp.MustCompile(`^[0-9a-z]{1,64}$`)
	registryHostPart   = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z.-]*[0-9A-Za-z])?(?::[0-9]+)?$`)
	scpLike            = regexp.MustCompile(`^([A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+):(.*)$`)
	knownGetters       = map[string]bool{"git": true, "hg": true, "http": true, "https": true, "file": true, "s3": true, "gcs": true}
)

// ParseModuleSource parses a module call's source argument as Terraform
// does: a local path (./ or ../), a registry address, or a remote package
// address with go-getter's shorthands expanded (github.com/ORG/REPO and
// bitbucket.org/ORG/REPO become git::https:// URLs, git@HOST:PATH becomes
// git::ssh://, an absolute path becomes file://). A "//" after the
// package address selects a subdirectory, which must stay inside the
// package. The error is the whole explanation for a diagnostic's detail.
func ParseModuleSource(raw string) (ModuleSource, error) {
	if isLocalModulePath(raw) {
		return ModuleSourceLocal(cleanLocalModulePath(raw)), nil
	}
	if r, ok := parseRegistrySource(raw); ok {
		return r, nil
	}
	r, err := ParseModuleSourceRemote(raw)
	switch {
	case errors.Is(err, errUndetected):
		//lint:ignore ST1005 the diagnostic's detail, in Terraform's words
		return nil, fmt.Errorf("strata failed to determine your intended installation method for remote module package %q.\n\nIf you intended this as a path relative to the current module, use \"./%s\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.", raw, raw)
	case err != nil:
		//lint:ignore ST1005 the diagnostic's detail, in Terraform's words
		return nil, fmt.Errorf("Failed to parse module source address: %s.", err)
	}
	return r, nil
}

var errUndetected = errors.New("cannot determine how to install the package")

// ParseModuleSourceRemote parses raw as a remote package address only,
// as a registry's X-Terraform-Get answer or an http page's terraform-get
// target is read: never as a local path or a registry address.
func ParseModuleSourceRemote(raw string) (ModuleSourceRemote, error) {
	getter, rest := splitForcedGetter(raw)
	if getter != "" && !knownGetters[getter] {
		return ModuleSourceRemote{}, fmt.Errorf("unrecognized installation method %q", getter)
	}
	pkg, subdir := SplitPackageSubdir(rest)
	detected, detGetter, extra, err := detectPackage(pkg)
	if err != nil {
		return ModuleSourceRemote{}, err
	}
	if detected == "" {
		return ModuleSourceRemote{}, fmt.Errorf("%w %q", errUndetected, raw)
	}
	subdir = path.Clean(path.Join(extra, subdir))
	if subdir == "." {
		subdir = ""
	}
	if subdir == ".." || strings.HasPrefix(subdir, "../") || path.IsAbs(subdir) {
		return ModuleSourceRemote{}, fmt.Errorf("subdirectory path %q leads outside of the module package", subdir)
	}
	out := ModuleSourceRemote{Getter: detGetter, Package: detected, Subdir: subdir}
	if getter != "" {
		out.Getter = getter
		if !strings.HasPrefix(detected, getter+"::") {
			out.Package = getter + "::" + detected
		}
	}
	return out, nil
}

// isLocalModulePath is a path relative to the calling module.
func isLocalModulePath(src string) bool {
	return strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../")
}

// cleanLocalModulePath cleans a local source as Terraform does before
// recording it: "./modules/app/" becomes "./modules/app".
func cleanLocalModulePath(src string) string {
	clean := path.Clean(strings.ReplaceAll(src, `\`, "/"))
	if strings.HasPrefix(clean, "../") {
		return clean
	}
	return "./" + clean
}

// parseRegistrySource parses [HOST/]NAMESPACE/NAME/SYSTEM[//SUBDIR].
// GitHub and Bitbucket addresses are never registry addresses.
func parseRegistrySource(raw string) (ModuleSourceRegistry, bool) {
	if strings.ContainsAny(raw, "?@") || strings.Contains(raw, "::") || strings.Contains(raw, "://") {
		return ModuleSourceRegistry{}, false
	}
	pkg, subdir, _ := strings.Cut(raw, "//")
	parts := strings.Split(pkg, "/")
	r := ModuleSourceRegistry{Host: DefaultModuleRegistryHost}
	switch len(parts) {
	case 3:
	case 4:
		if !registryHostPart.MatchString(parts[0]) {
			return ModuleSourceRegistry{}, false
		}
		r.Host = strings.ToLower(parts[0])
		parts = parts[1:]
	default:
		return ModuleSourceRegistry{}, false
	}
	if h := strings.ToLower(parts[0]); h == "github.com" || h == "bitbucket.org" || r.Host == "github.com" || r.Host == "bitbucket.org" {
		return ModuleSourceRegistry{}, false
	}
	if !registryNamePart.MatchString(parts[0]) || !registryNamePart.MatchString(parts[1]) || !registrySystemPart.MatchString(parts[2]) {
		return ModuleSourceRegistry{}, false
	}
	r.Namespace, r.Name, r.TargetSystem = parts[0], parts[1], parts[2]
	if subdir != "" {
		subdir = path.Clean(subdir)
		if subdir == ".." || strings.HasPrefix(subdir, "../") || path.IsAbs(subdir) {
			return ModuleSourceRegistry{}, false
		}
		if subdir != "." {
			r.Subdir = subdir
		}
	}
	return r, true
}

// ModuleRegistryAddrProblem says why raw, which is not a registry
// address, cannot be read as one, as Terraform says it when a module call
// sets version: the number of parts, or the hostname.
func ModuleRegistryAddrProblem(raw string) string {
	pkg, _ := SplitPackageSubdir(raw)
	parts := strings.Split(pkg, "/")
	if len(parts) == 4 && !registryHostPart.MatchString(parts[0]) {
		return fmt.Sprintf("invalid module registry hostname %q", parts[0])
	}
	if len(parts) == 3 && strings.ContainsAny(parts[0], ".:") {
		return "source address must have three more components after the hostname: the namespace, the name, and the target system"
	}
	if len(parts) == 3 || len(parts) == 4 {
		return fmt.Sprintf("%q is not a valid NAMESPACE/NAME/SYSTEM module registry address", pkg)
	}
	return "a module registry source address must have either three or four slash-separated components"
}

// IsModuleRegistrySource reports whether raw parses as a registry address.
func IsModuleRegistrySource(raw string) bool {
	_, ok := parseRegistrySource(raw)
	return ok
}

// detectPackage expands go-getter's shorthands in a package address
// without a subdirectory; detected is "" when raw is none of them. A
// GitHub or Bitbucket address's path after the repository is a
// subdirectory, returned as subdir.
func detectPackage(pkg string) (detected, getter, subdir string, err error) {
	if pkg == "" {
		return "", "", "", nil
	}
	if i := strings.Index(pkg, "://"); i > 0 {
		scheme := strings.ToLower(pkg[:i])
		switch scheme {
		case "http", "https", "file", "git", "ssh", "s3", "gcs", "hg":
			if scheme == "ssh" || scheme == "git" {
				return pkg, "git", "", nil
			}
			return pkg, scheme, "", nil
		}
		return "", "", "", nil
	}
	if strings.HasPrefix(pkg, "/") {
		return "file://" + pkg, "file", "", nil
	}
	lower := strings.ToLower(pkg)
	for _, host := range []string{"github.com/", "bitbucket.org/"} {
		if !strings.HasPrefix(lower, host) {
			continue
		}
		noQuery, query, _ := strings.Cut(pkg, "?")
		parts := strings.Split(noQuery, "/")
		if len(parts) < 3 {
			if host == "github.com/" {
				return "", "", "", errors.New("GitHub URLs should be github.com/username/repo")
			}
			//lint:ignore ST1005 shown as Terraform shows it
			return "", "", "", errors.New("Bitbucket URLs should be bitbucket.org/username/repo")
		}
		u, perr := url.Parse("https://" + strings.Join(parts[:3], "/"))
		if perr != nil {
			return "", "", "", perr
		}
		if !strings.HasSuffix(u.Path, ".git") {
			u.Path += ".git"
		}
		u.RawQuery = query
		return "git::" + u.String(), "git", strings.Join(parts[3:], "/"), nil
	}
	if m := scpLike.FindStringSubmatch(pkg); m != nil {
		p := m[2]
		if strings.HasPrefix(p, "/") {
			return "", "", "", fmt.Errorf("the path of %q must be relative to the home directory of the user; write an absolute path as ssh://%s%s", pkg, m[1], p)
		}
		return "git::ssh://" + m[1] + "/" + p, "git", "", nil
	}
	if strings.Contains(lower, ".amazonaws.com/") {
		return pkg, "s3", "", nil
	}
	if strings.HasPrefix(lower, "www.googleapis.com/storage/") {
		return pkg, "gcs", "", nil
	}
	return "", "", "", nil
}

// splitForcedGetter splits go-getter's "getter::" prefix off a source, as
// in "git::https://example.com/x.git".
func splitForcedGetter(src string) (getter, rest string) {
	i := strings.Index(src, "::")
	if i <= 0 || strings.ContainsAny(src[:i], "/:?@") {
		return "", src
	}
	return src[:i], src[i+2:]
}

// SplitPackageSubdir splits "file:///x.git//sub?ref=v1" into the package
// "file:///x.git?ref=v1" and the subdirectory "sub", as go-getter's
// SourceDirSubdir does: the subdirectory follows the first "//" after the
// scheme, and the query string stays with the package.
func SplitPackageSubdir(src string) (pkg, subdir string) {
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
