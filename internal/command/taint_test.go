package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ETaint: taint marks the object in the state, the plan then
// replaces it with Terraform's wording, apply does, and untaint undoes the
// mark without touching infrastructure.
func TestE2ETaint(t *testing.T) {
	t.Parallel()
	dir, state := appliedStateDir(t)
	before := readFile(t, state)
	serial := readStateDoc(t, state).Serial
	aID := instanceID(t, state, "terraform_data.a")

	r := mustInProcess(t, dir, 0, "taint", "-no-color", "terraform_data.a")
	if r.stdout != "Resource instance terraform_data.a has been marked as tainted.\n" {
		t.Errorf("wrong output: %q", r.stdout)
	}
	if !containsLine(stateInstances(t, state), "terraform_data.a="+aID+" (tainted)") {
		t.Fatalf("not tainted in the state: %v", stateInstances(t, state))
	}
	if got := readStateDoc(t, state).Serial; got != serial+1 {
		t.Errorf("serial %d after taint, want %d", got, serial+1)
	}
	// taint writes the usual terraform.tfstate.backup, as Terraform's does.
	if !bytes.Equal(readFile(t, state+".backup"), before) {
		t.Error("terraform.tfstate.backup does not hold the snapshot before taint")
	}
	show := mustInProcess(t, dir, 0, "state", "show", "-no-color", "terraform_data.a")
	if !strings.HasPrefix(show.stdout, "# terraform_data.a: (tainted)\n") {
		t.Errorf("state show does not say tainted:\n%s", show.stdout)
	}
	// Tainting again is harmless and writes nothing new.
	tainted := readFile(t, state)
	mustInProcess(t, dir, 0, "taint", "terraform_data.a")
	if !bytes.Equal(tainted, readFile(t, state)) {
		t.Error("tainting a tainted object rewrote the state")
	}

	plan := mustInProcess(t, dir, 2, "plan", "-no-color", "-detailed-exitcode")
	for _, want := range []string{
		"-/+ destroy and then create replacement",
		"  # terraform_data.a is tainted, so must be replaced\n-/+ resource \"terraform_data\" \"a\" {",
		`~ id     = "` + aID + `" -> (known after apply)`,
		"Plan: 1 to add, 0 to change, 1 to destroy.",
	} {
		// The plan is compared as Terraform prints it, without strata's
		// replace-reason line (TestE2EReplaceReasons checks that).
		if !strings.Contains(dropStrataNotes(plan.stdout), want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
		}
	}
	js := mustInProcess(t, dir, 2, "plan", "-json", "-detailed-exitcode")
	if !strings.Contains(js.stdout, `"reason":"tainted"`) {
		t.Errorf("-json plan does not give the reason:\n%s", js.stdout)
	}

	// untaint: back to ready, and no change planned.
	r = mustInProcess(t, dir, 0, "untaint", "-no-color", "terraform_data.a")
	if r.stdout != "Resource instance terraform_data.a has been successfully untainted.\n" {
		t.Errorf("wrong output: %q", r.stdout)
	}
	if !containsLine(stateInstances(t, state), "terraform_data.a="+aID) {
		t.Fatalf("still tainted: %v", stateInstances(t, state))
	}
	mustInProcess(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")

	// Tainted, then applied: a new object replaces it, and is ready.
	mustInProcess(t, dir, 0, "taint", `terraform_data.c["y"]`)
	cy := instanceID(t, state, `terraform_data.c["y"]`)
	apply := mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(apply.stdout, "Apply complete! Resources: 1 added, 0 changed, 1 destroyed.") {
		t.Errorf("wrong apply:\n%s", apply.stdout)
	}
	if id := instanceID(t, state, `terraform_data.c["y"]`); id == cy || containsLine(stateInstances(t, state), `terraform_data.c["y"]=`+id+" (tainted)") {
		t.Errorf("the tainted object was not replaced by a ready one: %v", stateInstances(t, state))
	}

	// Bad input: clear errors, state untouched.
	for name, tc := range map[string]struct {
		args []string
		want []string
	}{
		"missing": {args: []string{"taint", "terraform_data.zz"}, want: []string{"Error: No such resource instance",
			"There is no resource instance in the state with the address terraform_data.zz.", "before they can be tainted."}},
		"whole counted resource": {args: []string{"taint", "terraform_data.b"}, want: []string{"No such resource instance"}},
		"data resource":          {args: []string{"taint", "data.terraform_data.x"}, want: []string{"Resource instance data.terraform_data.x cannot be tainted"}},
		"bad address":            {args: []string{"taint", "bad[["}, want: []string{"Error: Index value required"}},
		"module":                 {args: []string{"taint", "module.m"}, want: []string{"Error: Invalid address"}},
		"no address":             {args: []string{"taint"}, want: []string{"The taint command expects exactly one argument."}},
		"untaint a ready object": {args: []string{"untaint", "terraform_data.a"}, want: []string{"Error: Resource instance is not tainted",
			"Resource instance terraform_data.a is not currently tainted, and so it cannot be untainted."}},
		"untaint missing": {args: []string{"untaint", "terraform_data.zz"}, want: []string{"before they can be tainted."}},
	} {
		t.Run(name, func(t *testing.T) {
			mustFailUnchanged(t, dir, state, tc.want, withFlag(tc.args, "-no-color")...)
		})
	}

	// -allow-missing: a warning and success, nothing written.
	before = readFile(t, state)
	for _, cmd := range []string{"taint", "untaint"} {
		r := mustInProcess(t, dir, 0, cmd, "-no-color", "-allow-missing", "terraform_data.zz")
		if !strings.Contains(flat(r.stdout), "Warning: No such resource instance Resource instance terraform_data.zz was not found, but this is not an error because -allow-missing was set.") {
			t.Errorf("%s -allow-missing: %s", cmd, r.stdout)
		}
	}
	if !bytes.Equal(before, readFile(t, state)) {
		t.Error("-allow-missing wrote the state")
	}

	// -state, -state-out and -backup.
	mustInProcess(t, dir, 0, "taint", "-state=modules.tfstate", "-state-out=out.tfstate", "-backup=none.backup", `module.k["a"].module.deep.terraform_data.leaf`)
	if !containsPrefix(stateInstances(t, filepath.Join(dir, "out.tfstate")), `module.k["a"].module.deep.terraform_data.leaf=`, " (tainted)") {
		t.Errorf("-state-out does not hold the tainted object: %v", stateInstances(t, filepath.Join(dir, "out.tfstate")))
	}
	if _, err := os.Stat(filepath.Join(dir, "none.backup")); err == nil {
		t.Error("a backup was written for a -state-out file that did not exist")
	}
	mustInProcess(t, dir, 0, "untaint", "-state=out.tfstate", "-backup=out.backup", `module.k["a"].module.deep.terraform_data.leaf`)
	if !strings.Contains(string(readFile(t, filepath.Join(dir, "out.backup"))), `"status": "tainted"`) {
		t.Error("-backup does not hold the tainted snapshot")
	}

	// No state at all.
	empty := workdir(t, "statecmd")
	mustFailUnchanged(t, empty, filepath.Join(empty, "terraform.tfstate"), []string{"The state currently contains no resource instances whatsoever."},
		"taint", "-no-color", "terraform_data.a")
}

func containsLine(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

func containsPrefix(lines []string, prefix, suffix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) && strings.HasSuffix(l, suffix) {
			return true
		}
	}
	return false
}
