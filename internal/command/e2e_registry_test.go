package command

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/getproviders/registrytest"
)

// The tests here install providers over the network from a registry and a
// network mirror that the test serves on 127.0.0.1 over TLS; the strata
// and terraform processes trust its certificate through SSL_CERT_FILE.

var hostPlatform = runtime.GOOS + "_" + runtime.GOARCH

// thingPackages are two versions of acme/thing, for several platforms
// (archives of different content, so each platform has its own zh: hash).
func thingPackages() []registrytest.Package {
	var out []registrytest.Package
	for _, v := range []string{"1.0.0", "1.1.0", "2.0.0-beta1"} {
		out = append(out, registrytest.Package{Namespace: "acme", Type: "thing", Version: v,
			Platforms: []string{hostPlatform, "darwin_arm64", "windows_amd64"}})
	}
	out = append(out, registrytest.Package{Namespace: "acme", Type: "elsewhere", Version: "1.0.0", Platforms: []string{"plan9_arm"}})
	return out
}

// strataEnv runs strata in dir with extra environment variables,
// KEY=VALUE, and no plugin cache.
func strataEnv(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return runWith(t, dir, "", strataBin, append([]string{"TF_PLUGIN_CACHE_DIR="}, env...), args...)
}

// terraformEnv runs terraform, when installed, in dir; ok is false when it
// is not.
func terraformEnv(t *testing.T, dir string, env []string, args ...string) (result, bool) {
	t.Helper()
	tf, err := referenceTerraform()
	if err != nil {
		return result{}, false
	}
	r := runWith(t, dir, "", tf, append([]string{"TF_PLUGIN_CACHE_DIR="}, env...), args...)
	return result{stdout: r.stdout + r.stderr, code: r.code}, true
}

func requireProvider(name, source, constraint string) string {
	c := ""
	if constraint != "" {
		c = fmt.Sprintf("\n      version = %q", constraint)
	}
	return fmt.Sprintf("terraform {\n  required_providers {\n    %s = {\n      source = %q%s\n    }\n  }\n}\n", name, source, c)
}

// TestE2ERegistryInstall: init discovers the registry, lists versions,
// downloads and verifies the newest allowed package, records the zh:
// hashes of every platform and the h1: hash, exactly as Terraform does,
// and reuses the installed package on the next run.
func TestE2ERegistryInstall(t *testing.T) {
	t.Parallel()
	s := newStaticRegistry(t, thingPackages()...)
	env := []string{"SSL_CERT_FILE=" + s.CertFile}
	cfg := requireProvider("thing", s.Host+"/acme/thing", "~> 1.0")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), cfg)
	r := strataEnv(t, dir, env, "init", "-no-color")
	if r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	for _, want := range []string{
		fmt.Sprintf(`- Finding %s/acme/thing versions matching "~> 1.0"...`, s.Host),
		fmt.Sprintf("- Installing %s/acme/thing v1.1.0...", s.Host),
		fmt.Sprintf("- Installed %s/acme/thing v1.1.0 (self-signed, key ID %s)", s.Host, s.KeyID),
		"Partner and community providers are signed by their developers.",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("init output lacks %q:\n%s", want, r.stdout)
		}
	}
	exe := filepath.Join(dir, ".terraform", "providers", s.Host, "acme", "thing", "1.1.0", hostPlatform, "terraform-provider-thing_v1.1.0")
	if fi, err := os.Stat(exe); err != nil || fi.Mode()&0o100 == 0 {
		t.Fatalf("provider not unpacked as an executable: %v", err)
	}
	lock := string(readFile(t, filepath.Join(dir, ".terraform.lock.hcl")))
	if got := strings.Count(lock, `"zh:`); got != 3 {
		t.Errorf("want one zh: hash per platform, got %d:\n%s", got, lock)
	}
	if !strings.Contains(lock, `"h1:`) || !strings.Contains(lock, `constraints = "~> 1.0"`) {
		t.Errorf("lock file:\n%s", lock)
	}

	// Terraform writes the same lock file for the same registry, and
	// accepts strata's as it is.
	tfDir := t.TempDir()
	writeFile(t, filepath.Join(tfDir, "main.tf"), cfg)
	if tr, ok := terraformEnv(t, tfDir, env, "init", "-no-color"); ok {
		if tr.code != 0 {
			t.Fatalf("terraform init: %s", tr.stdout)
		}
		if got := string(readFile(t, filepath.Join(tfDir, ".terraform.lock.hcl"))); got != lock {
			t.Errorf("lock files differ:\nstrata:\n%s\nterraform:\n%s", lock, got)
		}
		if tr, _ := terraformEnv(t, dir, env, "init", "-no-color"); tr.code != 0 || !strings.Contains(tr.stdout, "Using previously-installed") {
			t.Errorf("terraform init on strata's directory: %s", tr.stdout)
		}
		if got := string(readFile(t, filepath.Join(dir, ".terraform.lock.hcl"))); got != lock {
			t.Errorf("terraform rewrote strata's lock file:\n%s", got)
		}
	}

	// The next init needs no download.
	before := len(s.Requests())
	r = strataEnv(t, dir, env, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "- Using previously-installed "+s.Host+"/acme/thing v1.1.0") {
		t.Fatalf("second init: %+v", r)
	}
	if n := len(s.Requests()) - before; n != 0 {
		t.Errorf("second init made %d requests: %v", n, s.Requests()[before:])
	}

	// -upgrade past a widened constraint picks 1.1.0 still (2.0.0-beta1
	// is a pre-release) and a locked version is kept without -upgrade.
	writeFile(t, filepath.Join(dir, "main.tf"), requireProvider("thing", s.Host+"/acme/thing", ""))
	r = strataEnv(t, dir, env, "init", "-no-color", "-upgrade")
	if r.code != 0 || !strings.Contains(r.stdout, "- Finding latest version of "+s.Host+"/acme/thing...") || !strings.Contains(r.stdout, "v1.1.0") {
		t.Fatalf("init -upgrade: %+v", r)
	}
}

// TestE2ERegistryRealProvider installs a real provider plugin from the
// registry and applies a configuration with it.
func TestE2ERegistryRealProvider(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	bin := readFile(t, filepath.Join(mirror, "registry.terraform.io", "strata", "stratafw", "0.1.0", hostPlatform, "terraform-provider-stratafw_v0.1.0"))
	s := registrytest.New(t, registrytest.Package{Namespace: "strata", Type: "stratafw", Version: "0.1.0", Platforms: []string{hostPlatform},
		Files: map[string][]byte{"terraform-provider-stratafw_v0.1.0": bin}})
	env := []string{"SSL_CERT_FILE=" + s.CertFile}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(pluginConfig, `source = "strata/stratafw"`, `source = "`+s.Host+`/strata/stratafw"`, 1))
	if r := strataEnv(t, dir, env, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	r := strataEnv(t, dir, nil, "apply", "-auto-approve", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, `echo = "x-x-one"`) {
		t.Fatalf("apply: %+v", r)
	}
	strataEnv(t, dir, nil, "destroy", "-auto-approve", "-no-color")
}

// TestE2ENetworkMirror installs from a network mirror: index.json,
// VERSION.json and the archive, checked against the hashes the mirror
// lists; the lock file is the one Terraform writes.
func TestE2ENetworkMirror(t *testing.T) {
	t.Parallel()
	s := newStaticRegistry(t, thingPackages()...)
	dir := t.TempDir()
	cli := filepath.Join(dir, "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  network_mirror {\n    url = %q\n  }\n}\n", s.MirrorURL()))
	env := []string{"SSL_CERT_FILE=" + s.CertFile, "TF_CLI_CONFIG_FILE=" + cli}
	// Terraform's mirror client cannot build URLs for hostnames with a
	// port, so the provider's origin here is a name the mirror serves.
	cfg := requireProvider("thing", "example.com/acme/thing", "1.0.0")
	writeFile(t, filepath.Join(dir, "main.tf"), cfg)
	r := strataEnv(t, dir, env, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "- Installed example.com/acme/thing v1.0.0 (verified checksum)") {
		t.Fatalf("init: %+v", r)
	}
	for _, want := range []string{"/mirror/example.com/acme/thing/index.json", "/mirror/example.com/acme/thing/1.0.0.json"} {
		if !strings.Contains(strings.Join(s.Requests(), " "), want) {
			t.Errorf("no request for %s: %v", want, s.Requests())
		}
	}
	lock := string(readFile(t, filepath.Join(dir, ".terraform.lock.hcl")))
	tfDir := t.TempDir()
	writeFile(t, filepath.Join(tfDir, "main.tf"), cfg)
	if tr, ok := terraformEnv(t, tfDir, env, "init", "-no-color"); ok {
		if tr.code != 0 || !strings.Contains(tr.stdout, "(verified checksum)") {
			t.Fatalf("terraform init: %s", tr.stdout)
		}
		if got := string(readFile(t, filepath.Join(tfDir, ".terraform.lock.hcl"))); got != lock {
			t.Errorf("lock files differ:\nstrata:\n%s\nterraform:\n%s", lock, got)
		}
	}
	// A mirror whose hashes do not match the archive is refused.
	s.Break(registrytest.BadMirrorHash)
	os.RemoveAll(filepath.Join(dir, ".terraform"))
	os.Remove(filepath.Join(dir, ".terraform.lock.hcl"))
	r = strataEnv(t, dir, env, "init", "-no-color")
	if r.code != 1 || !strings.Contains(flat(r.stderr), "does not match any of the checksums the mirror lists") {
		t.Fatalf("bad mirror hash: %+v", r)
	}
}

// TestE2EProviderInstallationErrors: each failure stops init with an error
// that says what went wrong.
func TestE2EProviderInstallationErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		source, constraint, brk string
		want                    []string
	}{
		"registry unreachable": {source: "127.0.0.1:1/acme/thing", want: []string{
			"Failed to query available provider packages",
			"could not connect to 127.0.0.1:1: failed to request discovery document",
		}},
		"no such provider": {source: "HOST/acme/nope", want: []string{
			"Failed to query available provider packages", "provider registry HOST does not have a provider named HOST/acme/nope",
		}},
		"no matching version": {source: "HOST/acme/thing", constraint: "~> 3.0", want: []string{
			"Failed to query available provider packages", "no available releases match the given constraints ~> 3.0",
		}},
		"unsupported platform": {source: "HOST/acme/elsewhere", want: []string{
			"Incompatible provider version", "Provider HOST/acme/elsewhere v1.0.0 does not have a package available for your current platform, " + hostPlatform,
		}},
		"bad signature": {source: "HOST/acme/thing", brk: registrytest.BadSignature, want: []string{
			"Failed to install provider", "Error while installing HOST/acme/thing v1.1.0: authentication signature from unknown issuer",
		}},
		"bad checksum": {source: "HOST/acme/thing", brk: registrytest.BadArchive, want: []string{
			"Failed to install provider", "Error while installing HOST/acme/thing v1.1.0: archive has incorrect checksum",
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := registrytest.New(t, thingPackages()...)
			if tc.brk != "" {
				s.Break(tc.brk)
			}
			dir := t.TempDir()
			src := strings.ReplaceAll(tc.source, "HOST", s.Host)
			writeFile(t, filepath.Join(dir, "main.tf"), requireProvider("thing", src, tc.constraint))
			r := strataEnv(t, dir, []string{"SSL_CERT_FILE=" + s.CertFile}, "init", "-no-color")
			if r.code != 1 {
				t.Fatalf("exit code %d:\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			for _, w := range tc.want {
				if w = strings.ReplaceAll(w, "HOST", s.Host); !strings.Contains(flat(r.stderr), w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, ".terraform.lock.hcl")); err == nil {
				t.Errorf("a failed init wrote the lock file")
			}
		})
	}
}

// TestE2EProviderInstallationMethods: filesystem_mirror and direct with
// include/exclude, dev_overrides, and the plugin cache.
func TestE2EProviderInstallationMethods(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	s := newStaticRegistry(t, thingPackages()...)
	dir := t.TempDir()
	cli := filepath.Join(dir, "cli.tfrc")
	env := []string{"SSL_CERT_FILE=" + s.CertFile, "TF_CLI_CONFIG_FILE=" + cli}
	writeFile(t, cli, fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["strata/*"]
  }
  direct {
    exclude = ["strata/*"]
  }
}
`, mirror))
	cfg := strings.Replace(pluginConfig, "stratafw = { source = \"strata/stratafw\" }",
		"stratafw = { source = \"strata/stratafw\" }\n    thing = { source = \""+s.Host+"/acme/thing\" }", 1)
	writeFile(t, filepath.Join(dir, "main.tf"), cfg)
	r := strataEnv(t, dir, env, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "- Installed strata/stratafw v0.1.0 (unauthenticated)") ||
		!strings.Contains(r.stdout, "- Installed "+s.Host+"/acme/thing v1.1.0 (self-signed") {
		t.Fatalf("init: %+v", r)
	}
	for _, req := range s.Requests() {
		if strings.Contains(req, "stratafw") {
			t.Errorf("the registry was asked for an excluded provider: %s", req)
		}
	}
	// A provider that no method includes is an error.
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n    include = [\"strata/*\"]\n  }\n}\n", mirror))
	if r := strataEnv(t, dir, env, "init", "-no-color", "-upgrade"); r.code != 1 || !strings.Contains(flat(r.stderr), "no provider installation method in the CLI configuration applies to "+s.Host+"/acme/thing") {
		t.Fatalf("excluded provider: %+v", r)
	}

	t.Run("dev_overrides", func(t *testing.T) {
		dir := t.TempDir()
		cli := filepath.Join(dir, "cli.tfrc")
		bin := filepath.Join(mirror, "registry.terraform.io", "strata", "stratafw", "0.1.0", hostPlatform)
		writeFile(t, cli, fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"strata/stratafw\" = %q\n  }\n  direct {}\n}\n", bin))
		writeFile(t, filepath.Join(dir, "main.tf"), pluginConfig)
		env := []string{"TF_CLI_CONFIG_FILE=" + cli}
		r := strataEnv(t, dir, env, "init", "-no-color")
		if r.code != 0 || !strings.Contains(r.stdout, "- Skipping strata/stratafw: development override in "+bin) ||
			!strings.Contains(flat(r.stderr+r.stdout), "Skip strata init when using provider development overrides") {
			t.Fatalf("init: %+v", r)
		}
		if _, err := os.Stat(filepath.Join(dir, ".terraform", "providers", "registry.terraform.io", "strata")); err == nil {
			t.Errorf("init installed an overridden provider")
		}
		r = strataEnv(t, dir, env, "apply", "-auto-approve", "-no-color")
		if r.code != 0 || !strings.Contains(r.stdout, `echo = "x-x-one"`) {
			t.Fatalf("apply with the override: %+v", r)
		}
		warn := "The following provider development overrides are set in the CLI configuration: - strata/stratafw in " + bin
		if !strings.Contains(flat(r.stdout+r.stderr), "Warning: Provider development overrides are in effect") || !strings.Contains(flat(r.stdout+r.stderr), warn) {
			t.Errorf("no warning about the override:\n%s\n%s", r.stdout, r.stderr)
		}
		strataEnv(t, dir, env, "destroy", "-auto-approve", "-no-color")
	})

	t.Run("plugin_cache_dir", func(t *testing.T) {
		cache := t.TempDir()
		dir := t.TempDir()
		cli := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cli, fmt.Sprintf("plugin_cache_dir = %q\n", cache))
		env := []string{"SSL_CERT_FILE=" + s.CertFile, "TF_CLI_CONFIG_FILE=" + cli}
		cfg := requireProvider("thing", s.Host+"/acme/thing", "")
		writeFile(t, filepath.Join(dir, "main.tf"), cfg)
		if r := strataEnv(t, dir, env, "init", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "- Installed "+s.Host+"/acme/thing v1.1.0") {
			t.Fatalf("init: %+v", r)
		}
		cached := filepath.Join(cache, s.Host, "acme", "thing", "1.1.0", hostPlatform)
		if _, err := os.Stat(filepath.Join(cached, "terraform-provider-thing_v1.1.0")); err != nil {
			t.Fatalf("not installed into the cache: %v", err)
		}
		link := filepath.Join(dir, ".terraform", "providers", s.Host, "acme", "thing", "1.1.0", hostPlatform)
		if target, err := os.Readlink(link); err != nil || target != cached {
			t.Fatalf("want a link to %s, got %q (%v)", cached, target, err)
		}
		// A second directory with the same lock file links the cached
		// package without downloading it (TF_PLUGIN_CACHE_DIR this time).
		dir2 := t.TempDir()
		writeFile(t, filepath.Join(dir2, "main.tf"), cfg)
		writeFile(t, filepath.Join(dir2, ".terraform.lock.hcl"), string(readFile(t, filepath.Join(dir, ".terraform.lock.hcl"))))
		before := len(s.Requests())
		r := strataEnv(t, dir2, []string{"SSL_CERT_FILE=" + s.CertFile, "TF_PLUGIN_CACHE_DIR=" + cache}, "init", "-no-color")
		if r.code != 0 || !strings.Contains(r.stdout, "- Using "+s.Host+"/acme/thing v1.1.0 from the shared cache directory") {
			t.Fatalf("init from the cache: %+v", r)
		}
		for _, req := range s.Requests()[before:] {
			if strings.HasSuffix(req, ".zip") {
				t.Errorf("downloaded although cached: %s", req)
			}
		}
		// Terraform uses strata's cache the same way.
		dir3 := t.TempDir()
		writeFile(t, filepath.Join(dir3, "main.tf"), cfg)
		writeFile(t, filepath.Join(dir3, ".terraform.lock.hcl"), string(readFile(t, filepath.Join(dir, ".terraform.lock.hcl"))))
		if tr, ok := terraformEnv(t, dir3, []string{"SSL_CERT_FILE=" + s.CertFile, "TF_PLUGIN_CACHE_DIR=" + cache}, "init", "-no-color"); ok {
			if tr.code != 0 || !strings.Contains(tr.stdout, "from the shared cache directory") {
				t.Errorf("terraform init from strata's cache: %s", tr.stdout)
			}
		}
	})
}

// TestE2ERegistryCredentials: a private registry that wants a token gets
// it from TF_TOKEN_<host>, a credentials block of the CLI configuration or
// the credentials.tfrc.json that "terraform login" writes, as Terraform
// finds them; without one init says how to give one.
func TestE2ERegistryCredentials(t *testing.T) {
	t.Parallel()
	s := newStaticRegistry(t, thingPackages()...)
	s.RequireToken("sekret")
	cfg := requireProvider("thing", s.Host+"/acme/thing", "~> 1.0")
	// The variable's name keeps the port: env(1) can set it, shells
	// cannot, as with Terraform.
	tokenVar := "TF_TOKEN_" + strings.ReplaceAll(s.Host, ".", "_")
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".terraform.d"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".terraform.d", "credentials.tfrc.json"),
		fmt.Sprintf(`{"credentials": {%q: {"token": "sekret"}}}`, s.Host))
	block := filepath.Join(t.TempDir(), "cli.tfrc")
	writeFile(t, block, fmt.Sprintf("credentials %q {\n  token = \"sekret\"\n}\n", s.Host))
	base := []string{"SSL_CERT_FILE=" + s.CertFile, "HOME=" + t.TempDir()}

	tests := map[string]struct {
		env  []string
		ok   bool
		want []string
	}{
		"no token": {want: []string{
			"Failed to query available provider packages",
			"host " + s.Host + " requires authentication credentials",
			"set the environment variable " + tokenVar + " to the token",
			`add a block credentials "` + s.Host + `" { token = "..." }`,
		}},
		"rejected token": {env: []string{tokenVar + "=wrong"}, want: []string{
			"host " + s.Host + " rejected the given authentication credentials",
			"Check the token set for " + s.Host + " in the " + tokenVar + " environment variable",
		}},
		"TF_TOKEN_":          {env: []string{tokenVar + "=sekret"}, ok: true},
		"env over the file":  {env: []string{"TF_CLI_CONFIG_FILE=" + block, tokenVar + "=wrong"}, want: []string{"rejected the given authentication credentials"}},
		"credentials block":  {env: []string{"TF_CLI_CONFIG_FILE=" + block}, ok: true},
		"terraform login":    {env: []string{"TF_CLI_CONFIG_FILE=", "HOME=" + home}, ok: true},
		"TF_CLI_CONFIG_FILE": {env: []string{"HOME=" + home}, want: []string{"requires authentication credentials"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			env := append(append([]string(nil), base...), tc.env...)
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), cfg)
			r := strataEnv(t, dir, env, "init", "-no-color")
			if tc.ok != (r.code == 0) {
				t.Fatalf("exit code %d:\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(flat(r.stderr), w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if tc.ok {
				for _, p := range []string{"/.well-known/terraform.json", "/v1/providers/acme/thing/versions", "/v1/providers/acme/thing/1.1.0/download/" + strings.Replace(hostPlatform, "_", "/", 1)} {
					if got := s.Authorization(p); got != "Bearer sekret" {
						t.Errorf("%s got Authorization %q", p, got)
					}
				}
			}
			// Terraform takes the token from the same places.
			tfDir := t.TempDir()
			writeFile(t, filepath.Join(tfDir, "main.tf"), cfg)
			if tr, ok := terraformEnv(t, tfDir, env, "init", "-no-color"); ok {
				if tc.ok != (tr.code == 0) {
					t.Errorf("terraform exit code %d:\n%s", tr.code, tr.stdout)
				}
				if tc.ok {
					a, b := readFile(t, filepath.Join(dir, ".terraform.lock.hcl")), readFile(t, filepath.Join(tfDir, ".terraform.lock.hcl"))
					if !bytes.Equal(a, b) {
						t.Errorf("lock files differ:\n%s\n%s", a, b)
					}
				}
			}
		})
	}
}

// TestE2ENetworkMirrorCredentials: the token for the mirror's host goes
// with the mirror's requests.
func TestE2ENetworkMirrorCredentials(t *testing.T) {
	t.Parallel()
	s := newStaticRegistry(t, thingPackages()...)
	s.RequireToken("sekret")
	dir := t.TempDir()
	cli := filepath.Join(dir, "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  network_mirror {\n    url = %q\n  }\n}\n", s.MirrorURL()))
	writeFile(t, filepath.Join(dir, "main.tf"), requireProvider("thing", "example.com/acme/thing", "1.0.0"))
	env := []string{"SSL_CERT_FILE=" + s.CertFile, "TF_CLI_CONFIG_FILE=" + cli}
	r := strataEnv(t, dir, env, "init", "-no-color")
	if r.code != 1 || !strings.Contains(flat(r.stderr), "host "+s.Host+" requires authentication credentials") {
		t.Fatalf("init without a token: %+v", r)
	}
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  network_mirror {\n    url = %q\n  }\n}\ncredentials %q {\n  token = \"sekret\"\n}\n", s.MirrorURL(), s.Host))
	r = strataEnv(t, dir, env, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "- Installed example.com/acme/thing v1.0.0 (verified checksum)") {
		t.Fatalf("init: %+v", r)
	}
	for _, p := range []string{"/mirror/example.com/acme/thing/index.json", "/mirror/example.com/acme/thing/1.0.0.json"} {
		if got := s.Authorization(p); got != "Bearer sekret" {
			t.Errorf("%s got Authorization %q", p, got)
		}
	}
	tfDir := t.TempDir()
	writeFile(t, filepath.Join(tfDir, "main.tf"), requireProvider("thing", "example.com/acme/thing", "1.0.0"))
	if tr, ok := terraformEnv(t, tfDir, env, "init", "-no-color"); ok && tr.code != 0 {
		t.Errorf("terraform init with the same configuration: %s", tr.stdout)
	}
}
