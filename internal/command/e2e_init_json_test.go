package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// initStream decodes an init -json stream into comparable lines: the
// version message dropped, timestamps checked for their layout (whole
// seconds for init_output, as Terraform writes them) and removed, and
// "Terraform" read as "strata".
func initStream(t *testing.T, out string, strict bool) []string {
	t.Helper()
	whole := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	frac := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$`)
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			if strict {
				t.Fatalf("not a JSON line: %q", l)
			}
			continue // Terraform 1.11 writes some notes as plain text
		}
		ts, _ := m["@timestamp"].(string)
		if m["type"] == "init_output" && !whole.MatchString(ts) || m["type"] != "init_output" && !frac.MatchString(ts) {
			t.Errorf("timestamp %q of %v", ts, m["type"])
		}
		delete(m, "@timestamp")
		if m["type"] == "version" {
			continue
		}
		if d, ok := m["diagnostic"].(map[string]any); ok {
			delete(d, "detail") // worded for each tool
		}
		b, _ := json.Marshal(m)
		s := strings.NewReplacer("Terraform", "strata", "terraform init", "strata init", "terraform plan", "strata plan").Replace(string(b))
		lines = append(lines, s)
	}
	// Terraform looks for every provider before installing any, strata
	// one provider after another: the order of the provider lines
	// differs, so the messages are compared as a set.
	sort.Strings(lines)
	return lines
}

// TestE2EInitJSON: init -json writes the messages terraform init -json
// writes, for modules, a filesystem mirror, a registry with a plugin cache,
// the built-in provider, an empty directory and a failure.
func TestE2EInitJSON(t *testing.T) {
	t.Parallel()
	s := newStaticRegistry(t, thingPackages()...)
	root := t.TempDir()
	mirror := filepath.Join(root, "mirror", "example.com", "acme", "local", "1.0.0", hostPlatform)
	if err := os.MkdirAll(mirror, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(mirror, "terraform-provider-local_v1.0.0"), "#!/bin/sh\n")
	cli := filepath.Join(root, "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n    include = [\"example.com/*/*\"]\n  }\n  direct {\n    exclude = [\"example.com/*/*\"]\n  }\n}\n", filepath.Join(root, "mirror")))
	env := []string{"SSL_CERT_FILE=" + s.CertFile, "TF_CLI_CONFIG_FILE=" + cli, "TF_PLUGIN_CACHE_DIR=" + t.TempDir()}
	cfg := fmt.Sprintf(`terraform {
  required_providers {
    local = { source = "example.com/acme/local", version = "~> 1.0" }
    thing = { source = %q }
  }
}
resource "terraform_data" "a" {}
module "m" {
  source = "./m"
}
`, s.Host+"/acme/thing")
	setup := func(files map[string]string) string {
		dir := t.TempDir()
		for name, src := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, name), src)
		}
		return dir
	}
	project := map[string]string{"main.tf": cfg, "m/main.tf": "output \"o\" { value = 1 }\n"}
	steps := []struct {
		name  string
		files map[string]string
		args  []string
		code  int
	}{
		{"first", project, nil, 0},
		{"again", nil, nil, 0},
		{"upgrade", nil, []string{"-upgrade"}, 0},
		{"backend", map[string]string{"main.tf": "terraform {\n  backend \"local\" {}\n}\n"}, nil, 0},
		{"empty", map[string]string{}, nil, 0},
		{"no such provider", map[string]string{"main.tf": requireProvider("nope", s.Host+"/acme/nope", "")}, nil, 1},
		{"bad config", map[string]string{"main.tf": "resource \"x\" {\n"}, nil, 1},
		{"migrate", map[string]string{"main.tf": "\n"}, []string{"-migrate-state"}, 1},
	}
	var sdir, tdir string
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.files != nil {
				sdir, tdir = setup(st.files), setup(st.files)
			}
			args := append([]string{"init", "-json"}, st.args...)
			r := strataEnv(t, sdir, env, args...)
			if r.code != st.code {
				t.Fatalf("exit code %d:\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if r.stderr != "" {
				t.Errorf("stderr: %s", r.stderr)
			}
			got := initStream(t, r.stdout, true)
			tr, ok := terraformEnv(t, tdir, env, args...)
			if !ok {
				return
			}
			if tr.code != st.code {
				t.Fatalf("terraform exit code %d:\n%s", tr.code, tr.stdout)
			}
			if st.name == "upgrade" {
				// strata installs again what Terraform keeps.
				return
			}
			want := initStream(t, tr.stdout, false)
			switch st.name {
			case "empty":
				// strata words its empty-directory note its own way.
				if len(got) != 1 || len(want) != 1 || !strings.Contains(got[0], `"output_init_empty_message"`) || !strings.Contains(want[0], `"output_init_empty_message"`) {
					t.Errorf("strata:\n%s\nterraform:\n%s", got, want)
				}
				return
			case "bad config":
				// Terraform prints the backend header first, reports the
				// block twice and adds a note; the diagnostics are the same.
				for _, g := range got {
					if !slices.Contains(want, g) {
						t.Errorf("Terraform does not write\n%s\nin:\n%s", g, strings.Join(want, "\n"))
					}
				}
				return
			}
			if st.name == "backend" {
				// Terraform 1.11 writes this note as colored text into
				// the stream; later versions as this message.
				want = append(want, `{"@level":"info","@message":"Successfully configured the backend \"local\"! strata will automatically\nuse this backend unless the backend configuration changes.","@module":"terraform.ui","message_code":"backend_configured_success","type":"init_output"}`)
				sort.Strings(want)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("streams differ:\nstrata:\n%s\nterraform:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestE2EInitInAutomation: with TF_IN_AUTOMATION, init ends at its
// success line, without the advice about what to run next, as
// Terraform's does; without it the advice follows. Compared with
// terraform when installed.
func TestE2EInitInAutomation(t *testing.T) {
	t.Parallel()
	for _, automation := range []string{"1", ""} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		env := []string{"TF_IN_AUTOMATION=" + automation}
		r := strataEnv(t, dir, env, "init", "-no-color")
		advice := strings.Contains(r.stdout, "You may now begin working with strata.")
		if r.code != 0 || !strings.HasSuffix(strings.TrimSpace(r.stdout), "commands will detect it and remind you to do so if necessary.") && automation == "" || advice != (automation == "") {
			t.Errorf("TF_IN_AUTOMATION=%q: exit %d\n%s", automation, r.code, r.stdout)
		}
		tdir := t.TempDir()
		writeFile(t, filepath.Join(tdir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		if tr, ok := terraformEnv(t, tdir, env, "init", "-no-color"); ok {
			want := strings.NewReplacer("Terraform", "strata", `"terraform plan"`, `"strata plan"`).Replace(tr.stdout)
			if want != r.stdout {
				t.Errorf("TF_IN_AUTOMATION=%q differs from terraform:\n%s", automation, want)
			}
		}
	}
}
