package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EDestroyReceivesPlannedPrivate: the deletion of an object receives
// the private data the provider returned when the deletion (or the
// replacement) was planned, never the stored object's, as in Terraform
// (Terraform's e2etest TestProviderProtocols and TestUnmanagedSeparatePlan
// check this with a provider declaring plan_destroy). stratav5 declares
// plan_destroy and refuses a deletion given its stored private data. The
// steps cover an orphan, a replacement with and without
// create_before_destroy, a saved destroy plan and the destroy command;
// exit codes and summaries are Terraform's where terraform is installed.
func TestE2EDestroyReceivesPlannedPrivate(t *testing.T) {
	t.Parallel() // its own directories
	mirror := testProviderMirrorV5(t)
	const req = "terraform {\n  required_providers {\n    v5 = { source = \"strata/stratav5\" }\n  }\n}\n"
	thing := func(name, value, extra string) string {
		return fmt.Sprintf("resource \"stratav5_thing\" %q {\n  provider = v5\n  name     = %q\n%s}\n", name, value, extra)
	}
	const cbd = "  lifecycle {\n    create_before_destroy = true\n  }\n"
	first := req + thing("a", "one", "") + thing("b", "one", cbd) + thing("c", "one", "")
	second := req + thing("a", "two", "") + thing("b", "two", cbd)
	run := func(bin string) []string {
		dir := t.TempDir()
		cli := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		var got []string
		step := func(args ...string) {
			r := runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cli}, append(args, "-no-color")...)
			var lines []string
			for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
				if strings.Contains(l, " complete! Resources:") || strings.HasPrefix(l, "Error: ") || strings.HasPrefix(l, "Plan: ") {
					lines = append(lines, strings.TrimSpace(l))
				}
			}
			got = append(got, fmt.Sprintf("%s: exit %d %s", strings.Join(args, " "), r.code, strings.Join(lines, "; ")))
		}
		writeFile(t, filepath.Join(dir, "main.tf"), first)
		step("init")
		step("apply", "-auto-approve")
		writeFile(t, filepath.Join(dir, "main.tf"), second)
		step("apply", "-auto-approve") // c is deleted, a and b replaced
		step("plan", "-destroy", "-out=destroy.tfplan")
		step("apply", "destroy.tfplan")
		step("apply", "-auto-approve")
		step("destroy", "-auto-approve")
		return got[1:] // init's output differs by product name only
	}
	got := run(strataBin)
	for _, line := range got {
		if !strings.Contains(line, "exit 0") || strings.Contains(line, "Error:") {
			t.Errorf("strata: %s", line)
		}
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	want := run(tf)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// TestE2EDeposedApplyMessages: replacing an object with
// create_before_destroy, the human output names the deposed object when
// its destruction starts and only the instance when it is done, and the
// -json stream's apply messages name only the instance, with no deposed
// key, as Terraform's do. Compared with terraform where it is installed.
func TestE2EDeposedApplyMessages(t *testing.T) {
	t.Parallel() // its own directories
	mirror := testProviderMirrorV5(t)
	cfg := func(name string) string {
		return "terraform {\n  required_providers {\n    v5 = { source = \"strata/stratav5\" }\n  }\n}\n" +
			"resource \"stratav5_thing\" \"b\" {\n  provider = v5\n  name     = \"" + name + "\"\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n"
	}
	deposedKey := regexp.MustCompile(`deposed object [0-9a-f]{8}`)
	run := func(bin string) []string {
		dir := t.TempDir()
		cli := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		var got []string
		step := func(args ...string) {
			r := runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cli}, args...)
			if r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", bin, strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
				switch {
				case strings.Contains(l, `"type":"apply_`):
					var m struct {
						Message string         `json:"@message"`
						Hook    map[string]any `json:"hook"`
					}
					if err := json.Unmarshal([]byte(l), &m); err != nil {
						t.Fatal(err)
					}
					_, hasKey := m.Hook["deposed_key"]
					got = append(got, fmt.Sprintf("json: %s (deposed_key: %v)", m.Message, hasKey))
				case strings.Contains(l, "Destroying...") || strings.Contains(l, "Destruction complete"):
					got = append(got, "human: "+deposedKey.ReplaceAllString(strings.TrimSpace(l), "deposed object KEY"))
				}
			}
		}
		writeFile(t, filepath.Join(dir, "main.tf"), cfg("one"))
		step("init", "-no-color")
		step("apply", "-auto-approve", "-no-color")
		writeFile(t, filepath.Join(dir, "main.tf"), cfg("two"))
		step("apply", "-auto-approve", "-no-color")
		writeFile(t, filepath.Join(dir, "main.tf"), cfg("three"))
		step("apply", "-auto-approve", "-json")
		return got
	}
	got := run(strataBin)
	want := []string{
		"human: stratav5_thing.b (deposed object KEY): Destroying... [id=v5-one]",
		"human: stratav5_thing.b: Destruction complete after 0s",
		"json: stratav5_thing.b: Creating... (deposed_key: false)",
		"json: stratav5_thing.b: Creation complete after 0s [id=v5-three] (deposed_key: false)",
		"json: stratav5_thing.b: Destroying... [id=v5-two] (deposed_key: false)",
		"json: stratav5_thing.b: Destruction complete after 0s (deposed_key: false)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong messages (-want +got)\n%s", diff)
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if diff := cmp.Diff(run(tf), got); diff != "" {
		t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
	}
}
