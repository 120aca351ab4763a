package command

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// errorsFrom returns the diagnostics part of init's output: from the first
// "Error:" on, product names unified, lines unwrapped, and the path of a
// git that failed left out (it depends on the machine; terraform's runs
// are recorded on another).
func errorsFrom(out string) string {
	if i := strings.Index(out, "Error: "); i >= 0 {
		out = out[i:]
	}
	out = gitPath.ReplaceAllString(out, "git exited with")
	return paragraphs(strings.TrimSpace(out))
}

// gitPath matches the path of git in a failed download's message.
var gitPath = regexp.MustCompile(`/\S*/git exited with`)

// TestE2EModuleRegistryErrorsMatchTerraform: init's diagnostics for a
// registry module (or a git repository or archive) that cannot be
// installed are Terraform's.
func TestE2EModuleRegistryErrorsMatchTerraform(t *testing.T) {
	t.Parallel()
	s, _, env := moduleSourcesFixture(t)
	locked, _, lockedEnv := moduleSourcesFixture(t)
	locked.RequireToken("sekrit")
	locked.AddModule("acme/thing/null", "1.0.0", "/nowhere.zip")
	providersOnly := newStaticRegistry(t)
	staticSourceServer(t, s)
	staticSourceServer(t, locked)
	tests := map[string]struct {
		source, version string
		env             []string
		want            string
	}{
		"no match":               {"acme/thing/null", "~> 7.0", env, "Unresolvable module version constraint"},
		"not found":              {s.Host + "/acme/nope/null", "", env, "Module not found"},
		"bad constraint":         {"acme/thing/null", "nope", env, "Invalid version constraint"},
		"needs a token":          {locked.Host + "/acme/thing/null", "", lockedEnv, "Error accessing remote module registry"},
		"no module registry":     {providersOnly.Host + "/acme/thing/null", "", append(env, "SSL_CERT_FILE="+providersOnly.CertFile), "Error accessing remote module registry"},
		"version on a path":      {"example.com/x.zip", "1.0.0", env, "Invalid registry module source address"},
		"git repository missing": {"git::" + s.PlainURL + "/git/nope.git?ref=v1", "", env, "Failed to download module"},
		"archive missing":        {s.PlainURL + "/nope.zip", "", env, "Failed to download module"},
		"bad namespace":          {"ac.me/thing/null", "1.0.0", env, "Invalid registry module source address"},
		"download 404":           {s.Host + "/acme/gitthing/null", "0.2.0", env, "Failed to download module"},
		"version on git":         {"git::https://example.com/x.git", "1.0.0", env, "Invalid registry module source address"},
	}
	s.AddModule("acme/gitthing/null", "0.2.0", "/nowhere.tar.gz")
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			call := fmt.Sprintf("module \"m\" {\n  source = %q\n", tc.source)
			if tc.version != "" {
				call += fmt.Sprintf("  version = %q\n", tc.version)
			}
			sdir, tdir := twinDirs(t, map[string]string{"main.tf": call + "}\n"})
			r := inProcessEnv(t, sdir, tc.env, "init", "-no-color")
			if r.code != 1 {
				t.Fatalf("strata init: %+v", r)
			}
			got := errorsFrom(r.stderr)
			if tc.want != "" && !strings.HasPrefix(got, "Error: "+tc.want) {
				t.Errorf("strata's error is not %q:\n%s", tc.want, got)
			}
			tr, ok := terraformEnv(t, tdir, tc.env, "init", "-no-color")
			if !ok {
				return
			}
			if want := errorsFrom(tr.stdout); got != want {
				t.Errorf("errors differ:\nstrata:\n%s\nterraform:\n%s", got, want)
			}
		})
	}
}

// TestE2EModuleRegistryCredentials: the token of the CLI configuration's
// credentials block for the registry's host is sent, and the module
// installs, with both tools.
func TestE2EModuleRegistryCredentials(t *testing.T) {
	t.Parallel()
	s, _, env := moduleSourcesFixture(t)
	staticSourceServer(t, s)
	s.RequireToken("sekrit")
	cfg := filepath.Join(t.TempDir(), "creds.tfrc")
	writeFile(t, cfg, fmt.Sprintf("credentials %q {\n  token = \"sekrit\"\n}\n", s.Host))
	env = append(env, "TF_CLI_CONFIG_FILE="+cfg)
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": fmt.Sprintf("module \"m\" {\n  source  = %q\n  version = \"1.0.0\"\n}\n", s.Host+"/acme/thing/null")})
	if r := inProcessEnv(t, sdir, env, "init", "-no-color"); r.code != 0 {
		t.Fatalf("strata init: %+v", r)
	}
	if got := s.Authorization("/v1/modules/acme/thing/null/versions"); got != "Bearer sekrit" {
		t.Errorf("versions request had Authorization %q", got)
	}
	if tr, ok := terraformEnv(t, tdir, env, "init", "-no-color"); ok && tr.code != 0 {
		t.Errorf("terraform init: %s", tr.stdout)
	}
}
