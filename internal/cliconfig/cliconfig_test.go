package cliconfig

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/getproviders"
)

// TestCLIConfigCredentials: credentials blocks of the CLI configuration
// files and TF_TOKEN_ variables, decoded with Terraform's name rules, the
// variables winning.
func TestCLIConfigCredentials(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".terraform.d")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".terraformrc"), "credentials \"Main.Example.com\" {\n  token = \"main\"\n}\ncredentials \"none.example.com\" {\n}\n")
	writeFile(t, filepath.Join(dir, "credentials.tfrc.json"), `{"credentials": {"login.example.com": {"token": "login"}, "main.example.com": {"token": "replaced"}}}`)
	writeFile(t, filepath.Join(dir, "ignored.txt"), `credentials "x.example.com" { token = "no" }`)
	env := map[string]string{"HOME": home}
	getenv := func(k string) string { return env[k] }
	cfg, diags := Load(getenv)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := cfg.Tokens([]string{
		"TF_TOKEN_my__registry_example_com=dashes",
		"TF_TOKEN_login_example_com=env",
		"TF_TOKEN_127_0_0_1:8443=port",
		"TF_TOKEN_=empty",
		"PATH=/bin",
	})
	want := getproviders.Credentials{
		"main.example.com":        "replaced",
		"login.example.com":       "env",
		"my-registry.example.com": "dashes",
		"127.0.0.1:8443":          "port",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong result (-want +got)\n%s", diff)
	}
	if got := getproviders.TokenVariable("my-registry.Example.com"); got != "TF_TOKEN_my__registry_example_com" {
		t.Errorf("tokenVariable: %s", got)
	}

	// A configuration file named in TF_CLI_CONFIG_FILE replaces the
	// directory, credentials.tfrc.json included.
	env["TF_CLI_CONFIG_FILE"] = filepath.Join(home, ".terraformrc")
	cfg, _ = Load(getenv)
	if diff := cmp.Diff(getproviders.Credentials{"main.example.com": "main"}, cfg.Tokens(nil)); diff != "" {
		t.Errorf("with TF_CLI_CONFIG_FILE (-want +got)\n%s", diff)
	}
}

func writeFile(t *testing.T, path, src string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}
