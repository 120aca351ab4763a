package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ESavedPlanCI is the CI pipeline: plan -out with
// -detailed-exitcode, show the plan, apply exactly it, and refuse it again
// once the state has moved on, or when the file is damaged.
func TestE2ESavedPlanCI(t *testing.T) {
	t.Parallel()
	dir := workdir(t, "basic")
	planPath := filepath.Join(dir, "tfplan")
	plan := mustInProcess(t, dir, 2, "plan", "-no-color", "-out=tfplan", "-detailed-exitcode", "-var", `names=["x","y","z"]`)
	// TF_IN_AUTOMATION (set by the test helpers) drops what Terraform
	// says after the plan: where it saved it and the advice.
	if !strings.Contains(plan.stdout, "Plan: ") || strings.Contains(plan.stdout, `Saved the plan to`) || strings.Contains(plan.stdout, `strata apply "tfplan"`) {
		t.Fatalf("plan -out output:\n%s", plan.stdout)
	}
	if st, err := os.Stat(planPath); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("plan file missing or not private: %v", err)
	}

	// show renders the saved plan as plan did.
	show := mustInProcess(t, dir, 0, "show", "-no-color", "tfplan")
	body := func(s string) string {
		i := strings.Index(s, "strata used the selected providers")
		j := strings.Index(s, "Changes to Outputs:")
		if i < 0 || j < 0 {
			t.Fatalf("no plan body in:\n%s", s)
		}
		return s[i:j]
	}
	if body(show.stdout) != body(plan.stdout) {
		t.Fatalf("show differs from plan:\n%s\n---\n%s", show.stdout, plan.stdout)
	}

	// Variables come from the plan; setting them again is refused.
	if r := runInProcess(t, dir, nil, "", "apply", "-no-color", "-var", "names=[]", "tfplan"); r.code != 1 || !strings.Contains(flat(r.stderr), "Can't change variable when applying a saved plan") {
		t.Fatalf("apply plan with -var: %+v", r)
	}

	// A damaged file is refused, the state untouched.
	data := readFile(t, planPath)
	for name, bad := range map[string][]byte{
		"altered":   flipByteInEntry(t, data, "plan.json"),
		"truncated": data[:len(data)/2],
	} {
		writeFile(t, filepath.Join(dir, name), string(bad))
		r := runInProcess(t, dir, nil, "", "apply", "-no-color", name)
		if r.code != 1 || !strings.Contains(flat(r.stderr), "Invalid plan file") {
			t.Fatalf("%s plan: exit %d\n%s", name, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Fatal("a refused plan wrote state")
	}

	// Apply does exactly the plan, without asking.
	apply := mustInProcess(t, dir, 0, "apply", "-no-color", "tfplan")
	if !strings.Contains(flat(apply.stdout), "Apply complete! Resources: 8 added, 0 changed, 0 destroyed.") {
		t.Fatalf("apply of saved plan:\n%s", apply.stdout)
	}
	if strings.Contains(flat(apply.stdout), "Do you want to perform these actions?") {
		t.Fatal("applying a saved plan asked for approval")
	}
	if r := mustInProcess(t, dir, 0, "output", "-json", "counted"); !strings.Contains(flat(r.stdout), `"Z-1"`) {
		t.Fatalf("the plan's variable values were not used: %s", r.stdout)
	}

	// The same plan again is stale.
	before := readFile(t, filepath.Join(dir, "terraform.tfstate"))
	r := runInProcess(t, dir, nil, "", "apply", "-no-color", "tfplan")
	if r.code != 1 || !strings.Contains(flat(r.stderr), "Saved plan is stale") {
		t.Fatalf("second apply of the plan: %+v", r)
	}
	if string(readFile(t, filepath.Join(dir, "terraform.tfstate"))) != string(before) {
		t.Fatal("a stale plan changed the state")
	}

	// A destroy plan saved and applied.
	mustInProcess(t, dir, 2, "plan", "-no-color", "-destroy", "-out=destroy.tfplan", "-detailed-exitcode", "-var", `names=["x","y","z"]`)
	d := mustInProcess(t, dir, 0, "apply", "-no-color", "destroy.tfplan")
	if !strings.Contains(flat(d.stdout), "Apply complete! Resources: 0 added, 0 changed, 8 destroyed.") {
		t.Fatalf("destroy plan:\n%s", d.stdout)
	}
}

// TestE2ESavedPlanUsesSnapshot: the configuration saved in the plan is the
// one applied, even if the files changed since.
func TestE2ESavedPlanUsesSnapshot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `output "o" { value = "planned" }`)
	mustInProcess(t, dir, 0, "plan", "-no-color", "-out=p")
	writeFile(t, filepath.Join(dir, "main.tf"), `output "o" { value = "edited later" }`)
	mustInProcess(t, dir, 0, "apply", "-no-color", "p")
	if r := mustInProcess(t, dir, 0, "output", "-raw", "o"); r.stdout != "planned" {
		t.Fatalf("applied %q, want the planned configuration", r.stdout)
	}
}

// TestE2ESavedPlanOtherLineage: a saved plan applied to a state of
// another lineage (the same serial) is refused as not matching, not as
// stale, and the state is left alone; compared with terraform when
// installed.
func TestE2ESavedPlanOtherLineage(t *testing.T) {
	t.Parallel()
	run := func(bin string) result {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s", bin, r.stderr)
		}
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {}\n")
		if r := runIn(t, dir, "", bin, "plan", "-out=p", "-no-color"); r.code != 0 {
			t.Fatalf("%s plan: %s", bin, r.stderr)
		}
		path := filepath.Join(dir, "terraform.tfstate")
		var s map[string]any
		if err := json.Unmarshal(readFile(t, path), &s); err != nil {
			t.Fatal(err)
		}
		s["lineage"] = "00000000-1111-2222-3333-444444444444"
		data, _ := json.MarshalIndent(s, "", "  ")
		writeFile(t, path, string(data))
		r := runIn(t, dir, "", bin, "apply", "-no-color", "p")
		if after := readFile(t, path); string(after) != string(data) {
			t.Errorf("%s: the refused plan changed the state", bin)
		}
		return r
	}
	got := run(strataBin)
	const want = "\nError: Saved plan does not match the given state\n\nThe given plan file can not be applied because it was created from a\ndifferent state lineage.\n"
	if got.code != 1 || got.stderr != want {
		t.Errorf("exit %d, stderr\n%q\nwant exit 1 and\n%q", got.code, got.stderr, want)
	}
	if tf, err := referenceTerraform(); err == nil {
		if r := run(tf); r.code != got.code || r.stderr != got.stderr {
			t.Errorf("differs from terraform: exit %d\n%q", r.code, r.stderr)
		}
	}
}

// TestE2EPlanOutNothingToApply: plan -out of a plan with nothing to
// apply (no changes; a refresh-only plan that found no drift) writes the
// file but prints neither the rule nor where it saved it, as Terraform
// (equivalence test null_provider_update); one with changes prints both.
// Compared with terraform when it is installed.
func TestE2EPlanOutNothingToApply(t *testing.T) {
	t.Parallel()
	tf, _ := referenceTerraform()
	interactive := []string{"TF_IN_AUTOMATION="}
	run := func(bin string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n")
		if bin == tf {
			if r := runIn(t, dir, "", tf, "init", "-no-color"); r.code != 0 {
				t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
			}
		}
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s%s", bin, r.stdout, r.stderr)
		}
		var outs []string
		for _, args := range [][]string{
			{"plan", "-no-color", "-out=p1"},
			{"plan", "-no-color", "-refresh-only", "-out=p2"},
			{"plan", "-no-color", "-destroy", "-out=p3"},
		} {
			r := runWith(t, dir, "", bin, interactive, args...)
			if r.code != 0 {
				t.Fatalf("%s %v: %s%s", bin, args, r.stdout, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, strings.TrimPrefix(args[len(args)-1], "-out="))); err != nil {
				t.Fatalf("%s %v wrote no plan: %v", bin, args, err)
			}
			out := uuidRe.ReplaceAllString(r.stdout, "<uuid>")
			outs = append(outs, strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply").Replace(out))
		}
		return outs
	}
	got := run(strataBin)
	for i, saved := range []bool{false, false, true} {
		if strings.Contains(got[i], "Saved the plan to") != saved || strings.Contains(got[i], "─────") != saved {
			t.Errorf("plan %d: the footer shown is not %v:\n%s", i+1, saved, got[i])
		}
	}
	if tf != "" {
		for i, want := range run(tf) {
			if got[i] != want {
				t.Errorf("plan %d differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", i+1, want, got[i])
			}
		}
	}
}
