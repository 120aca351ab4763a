package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ERefreshOnlyMove: a refresh-only plan after a moved block shows
// the move as drift ("has moved to"), lists it in resource_drift as a
// no-op with its previous address, and has nothing to apply (no footer,
// applyable false, exit code 0 with -detailed-exitcode), as Terraform's
// (equivalence test moved_with_refresh_only); the normal plan shows the
// move among the changes only. Compared with terraform when installed.
func TestE2ERefreshOnlyMove(t *testing.T) {
	t.Parallel()
	tf, _ := referenceTerraform()
	moved := "resource \"terraform_data\" \"b\" {\n  input = \"x\"\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n"
	type outs struct{ plan, drift, normalDrift string }
	run := func(bin string) outs {
		dir := t.TempDir()
		if bin == tf {
			writeFile(t, filepath.Join(dir, "main.tf"), moved)
			if r := runIn(t, dir, "", tf, "init", "-no-color"); r.code != 0 {
				t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
			}
		}
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n")
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s%s", bin, r.stdout, r.stderr)
		}
		writeFile(t, filepath.Join(dir, "main.tf"), moved)
		env := []string{"TF_IN_AUTOMATION="}
		r := runWith(t, dir, "", bin, env, "plan", "-refresh-only", "-no-color", "-detailed-exitcode", "-out=p")
		if r.code != 0 {
			t.Fatalf("%s plan -refresh-only: exit %d, want 0\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		var o outs
		o.plan = strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply").Replace(uuidRe.ReplaceAllString(r.stdout, "<uuid>"))
		doc := func(plan string) string {
			var d struct {
				Applyable bool            `json:"applyable"`
				Drift     json.RawMessage `json:"resource_drift"`
			}
			s := runIn(t, dir, "", bin, "show", "-json", plan)
			if err := json.Unmarshal([]byte(s.stdout), &d); err != nil {
				t.Fatalf("%s show -json: %v\n%s", bin, err, s.stdout)
			}
			b, _ := json.Marshal(d)
			return uuidRe.ReplaceAllString(string(b), "<uuid>")
		}
		o.drift = doc("p")
		if r := runWith(t, dir, "", bin, env, "plan", "-no-color", "-out=q"); r.code != 0 {
			t.Fatalf("%s plan: %s%s", bin, r.stdout, r.stderr)
		}
		o.normalDrift = doc("q")
		return o
	}
	got := run(strataBin)
	for _, want := range []string{"# terraform_data.a has moved to terraform_data.b", "This is a refresh-only plan"} {
		if !strings.Contains(got.plan, want) {
			t.Errorf("refresh-only plan lacks %q:\n%s", want, got.plan)
		}
	}
	if strings.Contains(got.plan, "Saved the plan") {
		t.Errorf("refresh-only plan of a move offers to apply it:\n%s", got.plan)
	}
	if !strings.Contains(got.drift, `"applyable":false`) || !strings.Contains(got.drift, `"previous_address":"terraform_data.a"`) || !strings.Contains(got.drift, `"actions":["no-op"]`) {
		t.Errorf("refresh-only plan document: %s", got.drift)
	}
	if strings.Contains(got.normalDrift, "resource_drift") && !strings.Contains(got.normalDrift, `"resource_drift":null`) {
		t.Errorf("a normal plan lists a move as drift: %s", got.normalDrift)
	}
	if tf != "" {
		want := run(tf)
		if got != want {
			t.Errorf("differs from Terraform's:\n--- terraform\n%+v\n--- strata\n%+v", want, got)
		}
	}
}

// TestE2EPriorStateDependencies: the prior state of a plan records, for an
// object with a change, the dependencies stored and those of the
// configuration when it was refreshed, those stored when it was not; for
// an object without change, the configuration's; applying records the
// configuration's, as Terraform does (equivalence test moved_with_drift).
// Compared with terraform when installed.
func TestE2EPriorStateDependencies(t *testing.T) {
	t.Parallel()
	tf, _ := referenceTerraform()
	config := func(input string) string {
		return "resource \"terraform_data\" \"b\" {\n  input = \"x\"\n}\nresource \"terraform_data\" \"c\" {\n  input = \"y\"\n}\n" +
			"resource \"terraform_data\" \"a\" {\n  input      = \"" + input + "\"\n  depends_on = [terraform_data.c]\n}\n"
	}
	tests := map[string]struct {
		input, refresh string
		want           string // prior, then applied
	}{
		"no change":                {"z", "true", "terraform_data.c / terraform_data.c"},
		"change":                   {"z2", "true", "terraform_data.b,terraform_data.c / terraform_data.c"},
		"no change, not refreshed": {"z", "false", "terraform_data.c / terraform_data.c"},
		"change, not refreshed":    {"z2", "false", "terraform_data.b / terraform_data.c"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(bin string) string {
				dir := t.TempDir()
				if bin == tf {
					writeFile(t, filepath.Join(dir, "main.tf"), config("z"))
					if r := runIn(t, dir, "", tf, "init", "-no-color"); r.code != 0 {
						t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
					}
				}
				writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(config("z"), "terraform_data.c]", "terraform_data.b]", 1))
				if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
					t.Fatalf("%s apply: %s%s", bin, r.stdout, r.stderr)
				}
				writeFile(t, filepath.Join(dir, "main.tf"), config(tc.input))
				if r := runIn(t, dir, "", bin, "plan", "-no-color", "-refresh="+tc.refresh, "-out=p"); r.code != 0 {
					t.Fatalf("%s plan: %s%s", bin, r.stdout, r.stderr)
				}
				var doc struct {
					Prior struct {
						Values struct {
							Root struct {
								Resources []struct {
									Address   string   `json:"address"`
									DependsOn []string `json:"depends_on"`
								} `json:"resources"`
							} `json:"root_module"`
						} `json:"values"`
					} `json:"prior_state"`
				}
				if err := json.Unmarshal([]byte(runIn(t, dir, "", bin, "show", "-json", "p").stdout), &doc); err != nil {
					t.Fatal(err)
				}
				prior := ""
				for _, r := range doc.Prior.Values.Root.Resources {
					if r.Address == "terraform_data.a" {
						prior = strings.Join(r.DependsOn, ",")
					}
				}
				if r := runIn(t, dir, "", bin, "apply", "-no-color", "p"); r.code != 0 {
					t.Fatalf("%s apply: %s%s", bin, r.stdout, r.stderr)
				}
				var st struct {
					Resources []struct {
						Name      string `json:"name"`
						Instances []struct {
							Dependencies []string `json:"dependencies"`
						} `json:"instances"`
					} `json:"resources"`
				}
				b, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
				if err != nil || json.Unmarshal(b, &st) != nil {
					t.Fatalf("reading the state: %v", err)
				}
				applied := ""
				for _, r := range st.Resources {
					if r.Name == "a" {
						applied = strings.Join(r.Instances[0].Dependencies, ",")
					}
				}
				return prior + " / " + applied
			}
			if got := run(strataBin); got != tc.want {
				t.Errorf("strata: %s, want %s", got, tc.want)
			}
			if tf != "" {
				if got := run(tf); got != tc.want {
					t.Errorf("terraform: %s, want %s", got, tc.want)
				}
			}
		})
	}
}
