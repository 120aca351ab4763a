package cliconfig

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	hcl1 "github.com/hashicorp/hcl"
	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/getproviders"
)

// Config is what strata reads from Terraform's CLI configuration file
// (TF_CLI_CONFIG_FILE, else ~/.terraformrc): the provider installation
// methods, development overrides, the plugin cache and host service
// overrides. The file is HCL 1, as Terraform parses it: dev_overrides keys
// are quoted provider addresses, which HCL 2 does not allow.
type Config struct {
	// Path is the file read, or "" when there was none.
	Path string
	// Methods are the provider_installation methods in order; nil when the
	// file has no provider_installation block (the implied methods apply).
	Methods []Method
	// DevOverrides maps providers to the directory of a binary to run
	// instead of an installed package.
	DevOverrides map[addrs.Provider]string
	// PluginCacheDir is plugin_cache_dir or TF_PLUGIN_CACHE_DIR.
	PluginCacheDir string
	// PluginCacheMayBreakLock lets the cache be used for providers the
	// lock file has no checksums for yet.
	PluginCacheMayBreakLock bool
	// Hosts overrides service discovery: host → service → URL.
	Hosts map[string]map[string]string
	// Credentials are the tokens of credentials blocks, by host.
	Credentials getproviders.Credentials
}

// Method is one block of provider_installation.
type Method struct {
	// Kind is filesystem_mirror, network_mirror or direct.
	Kind string
	// Location is the mirror's path or URL.
	Location         string
	Include, Exclude []string
}

// Load reads the CLI configuration as Terraform does: the file
// TF_CLI_CONFIG_FILE (or the older TERRAFORM_CONFIG) names, else
// ~/.terraformrc and then every *.tfrc and *.tfrc.json file in the CLI
// configuration directory ~/.terraform.d, where "terraform login" writes
// credentials.tfrc.json. A missing file is an empty configuration.
// Environment variables override the files.
func Load(getenv func(string) string) (*Config, hcl.Diagnostics) {
	path := getenv("TF_CLI_CONFIG_FILE")
	if path == "" {
		path = getenv("TERRAFORM_CONFIG")
	}
	var files []string
	if path != "" {
		files = []string{path}
	} else if home := getproviders.HomeDir(getenv); home != "" {
		files = []string{filepath.Join(home, ".terraformrc")}
		// A configuration file named explicitly replaces the directory
		// too, as in Terraform.
		dir := filepath.Join(home, ".terraform.d")
		for _, pat := range []string{"*.tfrc", "*.tfrc.json"} {
			more, _ := filepath.Glob(filepath.Join(dir, pat))
			files = append(files, more...)
		}
	}
	cfg := &Config{}
	var diags hcl.Diagnostics
	for _, f := range files {
		fc, fdiags := parseCLIConfigFile(f)
		diags = append(diags, fdiags...)
		if fdiags.HasErrors() {
			return cfg, diags
		}
		if dd := cfg.merge(fc); dd.HasErrors() {
			return cfg, append(diags, dd...)
		}
	}
	if dir := getenv("TF_PLUGIN_CACHE_DIR"); dir != "" {
		cfg.PluginCacheDir = dir
	}
	if v := getenv("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE"); v != "" && v != "0" && v != "false" {
		cfg.PluginCacheMayBreakLock = true
	}
	return cfg, diags
}

// merge adds the settings of a later file to cfg: the first plugin cache
// directory wins, later hosts and credentials replace earlier ones, and
// only one file may hold a provider_installation block.
func (cfg *Config) merge(o *Config) hcl.Diagnostics {
	if o.Methods != nil || o.DevOverrides != nil {
		if cfg.Methods != nil || cfg.DevOverrides != nil {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid CLI configuration",
				Detail:   fmt.Sprintf("Error in %s: no more than one provider_installation block may be specified across the CLI configuration files (another is in %s).", o.Path, cfg.Path),
			}}
		}
		cfg.Methods, cfg.DevOverrides, cfg.Path = o.Methods, o.DevOverrides, o.Path
	}
	if cfg.Path == "" {
		cfg.Path = o.Path
	}
	if cfg.PluginCacheDir == "" {
		cfg.PluginCacheDir = o.PluginCacheDir
	}
	cfg.PluginCacheMayBreakLock = cfg.PluginCacheMayBreakLock || o.PluginCacheMayBreakLock
	for host, svcs := range o.Hosts {
		if cfg.Hosts == nil {
			cfg.Hosts = map[string]map[string]string{}
		}
		cfg.Hosts[host] = svcs
	}
	for host, tok := range o.Credentials {
		if cfg.Credentials == nil {
			cfg.Credentials = getproviders.Credentials{}
		}
		cfg.Credentials[host] = tok
	}
	return nil
}

// parseCLIConfigFile reads one CLI configuration file, HCL 1 or JSON.
func parseCLIConfigFile(path string) (*Config, hcl.Diagnostics) {
	cfg := &Config{}
	src, err := os.ReadFile(path)
	if err != nil || len(strings.TrimSpace(string(src))) == 0 {
		return cfg, nil
	}
	cfg.Path = path
	bad := func(format string, args ...any) hcl.Diagnostics {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid CLI configuration",
			Detail:   fmt.Sprintf("Error in %s: ", path) + fmt.Sprintf(format, args...),
		}}
	}
	f, err := hcl1.ParseBytes(src)
	if err != nil {
		return cfg, bad("%s.", err)
	}
	var top struct {
		PluginCacheDir          string `hcl:"plugin_cache_dir"`
		PluginCacheMayBreakLock bool   `hcl:"plugin_cache_may_break_dependency_lock_file"`
		Hosts                   map[string]struct {
			Services map[string]any `hcl:"services"`
		} `hcl:"host"`
		Credentials map[string]map[string]any `hcl:"credentials"`
	}
	list, ok := f.Node.(*ast.ObjectList)
	if !ok {
		return cfg, bad("the file must hold attributes and blocks.")
	}
	// Decode the simple settings from a copy without the blocks decoded
	// by hand, which the generic decoder cannot represent.
	simple := &ast.ObjectList{}
	for _, item := range list.Items {
		if len(item.Keys) > 0 && item.Keys[0].Token.Value() == "provider_installation" {
			continue
		}
		simple.Add(item)
	}
	if err := hcl1.DecodeObject(&top, simple); err != nil {
		return cfg, bad("%s.", err)
	}
	if top.PluginCacheDir != "" && cfg.PluginCacheDir == "" {
		cfg.PluginCacheDir = os.ExpandEnv(top.PluginCacheDir)
	}
	cfg.PluginCacheMayBreakLock = cfg.PluginCacheMayBreakLock || top.PluginCacheMayBreakLock
	for host, h := range top.Hosts {
		for svc, u := range h.Services {
			if s, ok := u.(string); ok {
				if cfg.Hosts == nil {
					cfg.Hosts = map[string]map[string]string{}
				}
				if cfg.Hosts[host] == nil {
					cfg.Hosts[host] = map[string]string{}
				}
				cfg.Hosts[host][svc] = s
			}
		}
	}
	for host, creds := range top.Credentials {
		// Terraform uses a block without a string token as no
		// credentials.
		if tok, ok := creds["token"].(string); ok {
			if cfg.Credentials == nil {
				cfg.Credentials = getproviders.Credentials{}
			}
			cfg.Credentials[getproviders.NormalizeHost(host)] = tok
		}
	}
	blocks := list.Filter("provider_installation")
	if len(blocks.Items) > 1 {
		return cfg, bad("only one provider_installation block is allowed.")
	}
	for _, pi := range blocks.Items {
		body, ok := pi.Val.(*ast.ObjectType)
		if !ok {
			return cfg, bad("provider_installation must be a block.")
		}
		cfg.Methods = []Method{}
		for _, item := range body.List.Items {
			if len(item.Keys) != 1 {
				return cfg, bad("invalid provider_installation block structure.")
			}
			kind := item.Keys[0].Token.Value().(string)
			obj, ok := item.Val.(*ast.ObjectType)
			if !ok {
				return cfg, bad("%s must be a block.", kind)
			}
			if kind == "dev_overrides" {
				if diags := cfg.decodeDevOverrides(obj, bad); diags.HasErrors() {
					return cfg, diags
				}
				continue
			}
			var m struct {
				Path    string   `hcl:"path"`
				URL     string   `hcl:"url"`
				Include []string `hcl:"include"`
				Exclude []string `hcl:"exclude"`
			}
			if err := hcl1.DecodeObject(&m, obj); err != nil {
				return cfg, bad("invalid %s block: %s.", kind, err)
			}
			method := Method{Kind: kind, Include: m.Include, Exclude: m.Exclude}
			switch kind {
			case "filesystem_mirror":
				if m.Path == "" {
					return cfg, bad("filesystem_mirror requires a \"path\" argument.")
				}
				method.Location = m.Path
			case "network_mirror":
				if m.URL == "" {
					return cfg, bad("network_mirror requires a \"url\" argument.")
				}
				method.Location = m.URL
			case "direct":
			default:
				return cfg, bad("unknown provider installation method %q: use filesystem_mirror, network_mirror, direct or dev_overrides.", kind)
			}
			for _, pat := range append(append([]string(nil), m.Include...), m.Exclude...) {
				if err := getproviders.ValidatePattern(pat); err != nil {
					return cfg, bad("%s.", err)
				}
			}
			cfg.Methods = append(cfg.Methods, method)
		}
	}
	return cfg, nil
}

func (cfg *Config) decodeDevOverrides(obj *ast.ObjectType, bad func(string, ...any) hcl.Diagnostics) hcl.Diagnostics {
	var m map[string]string
	if err := hcl1.DecodeObject(&m, obj); err != nil {
		return bad("invalid dev_overrides block: %s.", err)
	}
	for addr, dir := range m {
		p, err := addrs.ParseProviderSource(addr)
		if err != nil {
			return bad("invalid provider address %q in dev_overrides: %s.", addr, err)
		}
		if cfg.DevOverrides == nil {
			cfg.DevOverrides = map[addrs.Provider]string{}
		}
		cfg.DevOverrides[p] = dir
	}
	return nil
}

// DevOverrideWarning is the warning Terraform prints on every command that
// uses providers while development overrides are set; init says so
// differently.
func (cfg *Config) DevOverrideWarning(forInit bool) hcl.Diagnostics {
	if len(cfg.DevOverrides) == 0 {
		return nil
	}
	var lines []string
	for p, dir := range cfg.DevOverrides {
		lines = append(lines, fmt.Sprintf(" - %s in %s", p.ForDisplay(), dir))
	}
	sort.Strings(lines)
	detail := "The following provider development overrides are set in the CLI configuration:\n" + strings.Join(lines, "\n")
	if forInit {
		detail += "\n\nSkip strata init when using provider development overrides. It is not necessary and may error unexpectedly."
	} else {
		detail += "\n\nThe behavior may therefore not match any released version of the provider and applying changes may cause the state to become incompatible with published releases."
	}
	return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Provider development overrides are in effect", Detail: detail}}
}

// ProviderSource builds the installation source the CLI configuration
// describes. Without a provider_installation block it is Terraform's
// implied one: the implied local mirror directories for the providers
// found there, the origin registry for all others, and the packages
// already in .terraform/providers. Relative mirror paths are relative to
// workDir (empty: the process's working directory); client makes the
// registries' and network mirrors' requests (nil: http.DefaultClient).
func ProviderSource(cfg *Config, getenv func(string) string, creds getproviders.Credentials, providersDir, workDir string, client *http.Client) (getproviders.Source, hcl.Diagnostics) {
	reg := getproviders.NewRegistry(cfg.Hosts, creds, getenv)
	reg.Client = client
	inDir := func(p string) string {
		if workDir == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(workDir, p)
	}
	if cfg.Methods == nil {
		var local getproviders.DirSource
		for _, m := range getproviders.ImpliedMirrors(getenv) {
			local = append(local, inDir(m))
		}
		return getproviders.MultiSource{
			{Source: local},
			{Source: reg, Skip: func(p addrs.Provider) bool { return len(getproviders.Available(local, p)) > 0 }},
			{Source: getproviders.DirSource{providersDir}},
		}, nil
	}
	var ms getproviders.MultiSource
	for _, m := range cfg.Methods {
		sel := getproviders.Selector{Include: m.Include, Exclude: m.Exclude}
		switch m.Kind {
		case "filesystem_mirror":
			sel.Source = getproviders.DirSource{inDir(m.Location)}
		case "network_mirror":
			nm, err := getproviders.NewNetworkMirror(m.Location, client)
			if err != nil {
				return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid CLI configuration", Detail: fmt.Sprintf("Error in %s: %s.", cfg.Path, err)}}
			}
			nm.Credentials = creds
			sel.Source = nm
		case "direct":
			sel.Source = reg
		}
		ms = append(ms, sel)
	}
	return ms, nil
}

// Tokens are the tokens for private registries and mirrors: those of
// the credentials blocks, overridden by TF_TOKEN_<host> environment
// variables. In the variable name a host's dots may be written as "_" and
// its dashes as "__", since shells allow neither in names, so
// TF_TOKEN_my__registry_example_com is the token of my-registry.example.com.
func (cfg *Config) Tokens(environ []string) getproviders.Credentials {
	out := getproviders.Credentials{}
	for host, tok := range cfg.Credentials {
		out[host] = tok
	}
	for _, kv := range environ {
		name, val, ok := strings.Cut(kv, "=")
		host, isToken := strings.CutPrefix(name, "TF_TOKEN_")
		if !ok || !isToken || host == "" {
			continue
		}
		// Dashes cannot begin or end a label, so an odd run of
		// underscores never comes from one: "__" first, then "_".
		host = strings.ReplaceAll(host, "__", "-")
		host = strings.ReplaceAll(host, "_", ".")
		out[getproviders.NormalizeHost(host)] = val
	}
	return out
}
