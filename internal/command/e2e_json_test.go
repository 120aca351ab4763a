package command

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// jsonMessages parses a -json stream into normalized messages: timestamps,
// ids, elapsed times and the version line's tool name removed, so that
// strata's and Terraform's streams compare, sorted because concurrent
// operations report in any order.
func jsonMessages(t *testing.T, stream string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", line, err)
		}
		for _, k := range []string{"@level", "@message", "@module", "@timestamp", "type"} {
			if _, ok := m[k]; !ok {
				t.Fatalf("message lacks %s: %s", k, line)
			}
		}
		delete(m, "@timestamp")
		if m["type"] == "resource_outcome" {
			// strata only (website/docs/json.md); TestE2ERunsOutcomes
			// checks them.
			continue
		}
		if m["type"] == "version" {
			m = map[string]any{"type": "version", "ui": m["ui"]}
		}
		if h, ok := m["hook"].(map[string]any); ok {
			delete(h, "elapsed_seconds")
		}
		b, _ := json.Marshal(m)
		out = append(out, normalize(strings.NewReplacer("Terraform", "strata").Replace(string(b))))
	}
	sort.Strings(out)
	return out
}

func TestE2EJSONStreamMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	step1 := "resource \"terraform_data\" \"a\" {\n  count = 2\n  input = \"x\"\n}\nresource \"terraform_data\" \"b\" {\n  input = terraform_data.a[0].output\n}\noutput \"o\" {\n  value = terraform_data.b.output\n}\noutput \"s\" {\n  value     = \"s\"\n  sensitive = true\n}\n"
	step2 := "resource \"terraform_data\" \"a\" {\n  count            = 1\n  input            = \"y\"\n  triggers_replace = 2\n}\noutput \"s\" {\n  value     = \"s\"\n  sensitive = true\n}\n"
	bad := "resource \"terraform_data\" \"a\" {\n  input = var.nope\n}\n"
	// A data source that fails while planning: its read and error.
	dataErr := "resource \"terraform_data\" \"a\" {\n  input = 1\n}\ndata \"terraform_remote_state\" \"s\" {\n  backend = \"local\"\n  config = { path = \"nope.tfstate\" }\n}\n"
	run := func(bin string) map[string][]string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), step1)
		if bin == tf {
			if r := runIn(t, dir, "", tf, "init", "-no-color"); r.code != 0 {
				t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
			}
		}
		got := map[string][]string{}
		got["plan"] = jsonMessages(t, runIn(t, dir, "", bin, "plan", "-json").stdout)
		got["apply"] = jsonMessages(t, runIn(t, dir, "", bin, "apply", "-json", "-auto-approve").stdout)
		writeFile(t, filepath.Join(dir, "main.tf"), step2)
		got["change"] = jsonMessages(t, runIn(t, dir, "", bin, "apply", "-json", "-auto-approve").stdout)
		got["destroy"] = jsonMessages(t, runIn(t, dir, "", bin, "destroy", "-json", "-auto-approve").stdout)
		writeFile(t, filepath.Join(dir, "main.tf"), bad)
		got["error"] = jsonMessages(t, runIn(t, dir, "", bin, "plan", "-json").stdout)
		writeFile(t, filepath.Join(dir, "main.tf"), dataErr)
		got["data-error"] = jsonMessages(t, runIn(t, dir, "", bin, "plan", "-json").stdout)
		return got
	}
	want, got := run(tf), run(strataBin)
	for _, step := range []string{"plan", "apply", "change", "destroy", "error", "data-error"} {
		if strings.Join(want[step], "\n") != strings.Join(got[step], "\n") {
			t.Errorf("%s: the -json stream differs from Terraform's\n--- terraform\n%s\n--- strata\n%s", step,
				strings.Join(want[step], "\n"), strings.Join(got[step], "\n"))
		}
	}
}

func TestE2EJSONApplyNeedsApproval(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `resource "terraform_data" "a" {}`)
	r := strata(t, dir, "apply", "-json")
	if r.code != 1 || !strings.Contains(flat(r.stdout), "Plan file or auto-approve required") {
		t.Fatalf("apply -json without -auto-approve: %+v", r)
	}
}
