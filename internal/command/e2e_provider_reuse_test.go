package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EProviderStartsPerCommand counts the provider processes each
// command starts (go-plugin's "starting plugin" debug lines): the walks
// of one command share them (engine.KeepProviders), unless the
// command waited for an answer or a provider's configuration changed,
// and commands that only read schemas start none when the schemas are
// kept (plugin.Factory). Terraform starts one per walk (three or four
// for an apply) and one to read schemas.
func TestE2EProviderStartsPerCommand(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pluginConfig)
	cliConfig := filepath.Join(dir, "cli.tfrc")
	writeFile(t, cliConfig, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	logPath := filepath.Join(t.TempDir(), "log")
	env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "TF_LOG=debug", "TF_LOG_PATH=" + logPath}
	// starts runs strata and returns how many provider processes it
	// started.
	starts := func(stdin string, args ...string) int {
		t.Helper()
		os.Remove(logPath)
		if r := runWith(t, dir, stdin, strataBin, env, args...); r.code != 0 {
			t.Fatalf("strata %s: exit code %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		log, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(log), "starting plugin: path=")
	}
	if r := runWith(t, dir, "", strataBin, []string{"TF_CLI_CONFIG_FILE=" + cliConfig}, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %s%s", r.stdout, r.stderr)
	}
	steps := []struct {
		stdin string
		args  []string
		want  int
	}{
		{"", []string{"apply", "-auto-approve", "-no-color"}, 1},
		{"", []string{"plan", "-no-color", "-var", "name=two"}, 1},
		{"", []string{"plan", "-no-color", "-var", "name=two", "-out", "two.plan"}, 1},
		// Commands that only read schemas find them kept by the
		// earlier ones (.terraform/schemas) and start no provider.
		{"", []string{"show", "-no-color", "two.plan"}, 0},
		{"", []string{"show", "-json", "two.plan"}, 0},
		{"", []string{"show", "-no-color"}, 0},
		{"", []string{"state", "show", "-no-color", "stratafw_thing.a"}, 0},
		{"", []string{"providers", "schema", "-json"}, 0},
		{"", []string{"apply", "-no-color", "two.plan"}, 1},
		// The question may wait long: the apply starts afresh.
		{"yes\n", []string{"apply", "-no-color", "-var", "name=three"}, 2},
		{"", []string{"apply", "-auto-approve", "-no-color", "-refresh-only"}, 1},
		// A refresh plan, the destroy plan and its apply.
		{"", []string{"destroy", "-auto-approve", "-no-color"}, 1},
	}
	for _, s := range steps {
		if got := starts(s.stdin, s.args...); got != s.want {
			t.Errorf("strata %s started the provider %d times, want %d", strings.Join(s.args, " "), got, s.want)
		}
	}

	// A configuration known only once a resource exists is sent again
	// to a new process: a provider is configured once.
	writeFile(t, filepath.Join(dir, "main.tf"), pluginConfig+`
provider "stratafw" {
  alias  = "late"
  prefix = stratafw_thing.a.id
}
resource "stratafw_thing" "late" {
  provider = stratafw.late
  name     = "late"
}
`)
	// The plan starts the default configuration's and the late one's;
	// the apply a new late one.
	if got := starts("", "apply", "-auto-approve", "-no-color"); got != 3 {
		t.Errorf("apply with a configuration unknown when planned started the provider %d times, want 3", got)
	}
}
