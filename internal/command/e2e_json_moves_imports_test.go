package command

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EJSONStreamsOfMovesAndImports: the -json streams of plan, apply
// and the apply of a saved plan for a move and an import that change
// nothing are Terraform's: a plan announces them, the apply of the saved
// plan does not (equivalence test moved_simple), the import's read is
// reported started and complete, and the summaries count the import.
// strata's own messages (version, resource_outcome) are left out;
// compared with terraform when it is installed.
func TestE2EJSONStreamsOfMovesAndImports(t *testing.T) {
	t.Parallel()
	tf, _ := referenceTerraform()
	tests := map[string]struct {
		before, after string
		want          []string // strata's plan stream, as "type: message"
	}{
		"move": {
			before: "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n",
			after:  "resource \"terraform_data\" \"b\" {\n  input = \"x\"\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n",
			want: []string{
				"refresh_start: terraform_data.b: Refreshing state... [id=<uuid>]",
				"refresh_complete: terraform_data.b: Refresh complete [id=<uuid>]",
				"planned_change: terraform_data.b: Plan to move",
				"change_summary: Plan: 0 to add, 0 to change, 0 to destroy.",
			},
		},
		"import": {
			after: "resource \"terraform_data\" \"b\" {}\nimport {\n  id = \"abc\"\n  to = terraform_data.b\n}\n",
			want: []string{
				"refresh_start: terraform_data.b: Refreshing state... [id=abc]",
				"refresh_complete: terraform_data.b: Refresh complete [id=abc]",
				"planned_change: terraform_data.b: Plan to import",
				"change_summary: Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.",
			},
		},
	}
	stream := func(out string) []string {
		var msgs []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("not JSON: %s", l)
			}
			if m["type"] == "version" || m["type"] == "resource_outcome" {
				continue
			}
			delete(m, "@timestamp")
			b, _ := json.Marshal(m)
			msgs = append(msgs, uuidRe.ReplaceAllString(string(b), "<uuid>"))
		}
		return msgs
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(bin string) [][]string {
				var runs [][]string
				for _, saved := range []bool{false, true} {
					dir := t.TempDir()
					if bin == tf {
						writeFile(t, filepath.Join(dir, "main.tf"), tc.after)
						if r := runIn(t, dir, "", tf, "init", "-no-color"); r.code != 0 {
							t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
						}
					}
					if tc.before != "" {
						writeFile(t, filepath.Join(dir, "main.tf"), tc.before)
						if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
							t.Fatalf("%s apply: %s%s", bin, r.stdout, r.stderr)
						}
					}
					writeFile(t, filepath.Join(dir, "main.tf"), tc.after)
					if !saved {
						runs = append(runs, stream(runIn(t, dir, "", bin, "apply", "-auto-approve", "-json").stdout))
						continue
					}
					runs = append(runs, stream(runIn(t, dir, "", bin, "plan", "-json", "-out=p").stdout))
					runs = append(runs, stream(runIn(t, dir, "", bin, "apply", "-json", "p").stdout))
				}
				return runs
			}
			got := run(strataBin)
			var plan []string
			for _, m := range got[1] {
				var v map[string]any
				_ = json.Unmarshal([]byte(m), &v)
				plan = append(plan, v["type"].(string)+": "+v["@message"].(string))
			}
			if strings.Join(plan, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("plan -json:\n%s\nwant\n%s", strings.Join(plan, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, m := range got[2] {
				if strings.Contains(m, `"planned_change"`) {
					t.Errorf("the apply of the saved plan announces a change that changes nothing: %s", m)
				}
			}
			if tf == "" {
				return
			}
			for i, want := range run(tf) {
				if strings.Join(got[i], "\n") != strings.Join(want, "\n") {
					t.Errorf("stream %d differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", i, strings.Join(want, "\n"), strings.Join(got[i], "\n"))
				}
			}
		})
	}
}
