package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The end-to-end tests of the state commands work on testdata/statecmd:
// main.tf, applied by each test, holds terraform_data.a, b[0..1] and
// c["x"/"y"]; modules.tfstate is a state Terraform 1.11 wrote for a
// configuration with a data source and nested, counted modules (strata
// cannot apply modules yet).

// stateDoc is the part of a state file these tests look at.
type stateDoc struct {
	Serial    uint64
	Lineage   string
	Resources []struct {
		Module    string
		Mode      string
		Type      string
		Name      string
		Provider  string
		Instances []struct {
			IndexKey   any    `json:"index_key"`
			Status     string `json:"status"`
			Attributes map[string]any
		}
	}
}

func readStateDoc(t *testing.T, path string) stateDoc {
	t.Helper()
	var doc stateDoc
	if err := json.Unmarshal(readFile(t, path), &doc); err != nil {
		t.Fatalf("%s is not a state file: %v", path, err)
	}
	return doc
}

// stateInstances returns "address=id" for every instance in a state file,
// read straight from the JSON, sorted; tainted objects get " (tainted)".
func stateInstances(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, r := range readStateDoc(t, path).Resources {
		base := r.Type + "." + r.Name
		if r.Mode == "data" {
			base = "data." + base
		}
		if r.Module != "" {
			base = r.Module + "." + base
		}
		for _, inst := range r.Instances {
			addr := base
			switch k := inst.IndexKey.(type) {
			case float64:
				addr += fmt.Sprintf("[%d]", int(k))
			case string:
				addr += fmt.Sprintf("[%q]", k)
			}
			line := fmt.Sprintf("%s=%v", addr, inst.Attributes["id"])
			if inst.Status == "tainted" {
				line += " (tainted)"
			}
			out = append(out, line)
		}
	}
	sort.Strings(out)
	return out
}

// instanceID returns the id of one instance in a state file.
func instanceID(t *testing.T, path, addr string) string {
	t.Helper()
	for _, l := range stateInstances(t, path) {
		a, id, _ := strings.Cut(strings.TrimSuffix(l, " (tainted)"), "=")
		if a == addr {
			return id
		}
	}
	t.Fatalf("%s is not in %s", addr, path)
	return ""
}

// timestampedBackups lists the PATH.<time>.backup files beside a state.
func timestampedBackups(t *testing.T, path string) []string {
	t.Helper()
	got, err := filepath.Glob(path + ".*.backup")
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// mustFailUnchanged runs strata expecting exit code 1 and every one of
// want in stderr, and checks that the file at path is byte-identical
// afterwards (or still absent).
func mustFailUnchanged(t *testing.T, dir, path string, want []string, args ...string) result {
	t.Helper()
	before, beforeErr := os.ReadFile(path)
	r := strata(t, dir, args...)
	if r.code != 1 {
		t.Fatalf("strata %s: exit code %d, want 1\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(flat(r.stderr), flat(w)) {
			t.Errorf("strata %s: stderr lacks %q:\n%s", strings.Join(args, " "), w, r.stderr)
		}
	}
	after, afterErr := os.ReadFile(path)
	if (beforeErr == nil) != (afterErr == nil) || !bytes.Equal(before, after) {
		t.Errorf("strata %s changed %s", strings.Join(args, " "), path)
	}
	return r
}

func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }

// appliedStateDir returns a working copy of testdata/statecmd with main.tf
// applied, and the path of its state file.
func appliedStateDir(t *testing.T) (dir, statePath string) {
	t.Helper()
	dir = workdir(t, "statecmd")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	return dir, filepath.Join(dir, "terraform.tfstate")
}

func TestE2EStateList(t *testing.T) {
	t.Parallel()
	dir := workdir(t, "statecmd")
	state := filepath.Join(dir, "terraform.tfstate")
	mustFailUnchanged(t, dir, state, []string{"No state file was found", "use the -state flag"}, "state", "list", "-no-color")

	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	all := lines("terraform_data.a", "terraform_data.b[0]", "terraform_data.b[1]", `terraform_data.c["x"]`, `terraform_data.c["y"]`)
	aID := instanceID(t, state, "terraform_data.a")
	tests := map[string]struct {
		args []string
		want string
	}{
		"everything": {want: all},
		"resource":   {args: []string{"terraform_data.b"}, want: lines("terraform_data.b[0]", "terraform_data.b[1]")},
		// Each filter prints its matches in turn, duplicates and all, as
		// Terraform's do.
		"instance and resource": {args: []string{`terraform_data.c["y"]`, "terraform_data.a"}, want: lines(`terraform_data.c["y"]`, "terraform_data.a")},
		"same twice":            {args: []string{"terraform_data.b[1]", "terraform_data.b"}, want: lines("terraform_data.b[1]", "terraform_data.b[0]", "terraform_data.b[1]")},
		"id":                    {args: []string{"-id=" + aID}, want: lines("terraform_data.a")},
		"id and filter":         {args: []string{"-id", aID, "terraform_data.b"}, want: ""},
		"unknown id":            {args: []string{"-id=nope"}, want: ""},
		"flags after addresses": {args: []string{"terraform_data.a", "-no-color"}, want: lines("terraform_data.a")},
		"modules: everything": {args: []string{"-state=modules.tfstate"}, want: lines(
			"data.terraform_remote_state.r", "terraform_data.a", "terraform_data.b[0]", "terraform_data.b[1]",
			`module.k["a"].terraform_data.inner`, `module.k["b"].terraform_data.inner`, "module.m.terraform_data.inner",
			`module.k["a"].module.deep.terraform_data.leaf`, `module.k["b"].module.deep.terraform_data.leaf`,
			"module.m.module.deep.terraform_data.leaf")},
		"modules: every instance of a module call": {args: []string{"-state=modules.tfstate", "module.k"}, want: lines(
			`module.k["a"].terraform_data.inner`, `module.k["b"].terraform_data.inner`,
			`module.k["a"].module.deep.terraform_data.leaf`, `module.k["b"].module.deep.terraform_data.leaf`)},
		"modules: one instance": {args: []string{"-state=modules.tfstate", `module.k["b"]`}, want: lines(
			`module.k["b"].terraform_data.inner`, `module.k["b"].module.deep.terraform_data.leaf`)},
		"modules: nested": {args: []string{"-state=modules.tfstate", "module.m.module.deep"}, want: lines("module.m.module.deep.terraform_data.leaf")},
		"modules: data":   {args: []string{"-state=modules.tfstate", "data.terraform_remote_state.r"}, want: lines("data.terraform_remote_state.r")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := mustStrata(t, dir, 0, append([]string{"state", "list"}, tc.args...)...)
			if r.stdout != tc.want {
				t.Errorf("wrong output\n--- want\n%s--- got\n%s", tc.want, r.stdout)
			}
		})
	}

	errs := map[string]struct {
		args []string
		want []string
	}{
		"unknown resource": {args: []string{"nope.nope"}, want: []string{"Error: Unknown resource",
			`The current state contains no resource nope.nope. If you've just added this resource to the configuration, you must run "strata apply" first`}},
		"unknown instance": {args: []string{"terraform_data.b[5]"}, want: []string{"Error: Unknown resource instance", "contains no resource instance terraform_data.b[5]."}},
		"unknown module":   {args: []string{"module.zz"}, want: []string{"Error: Unknown module", "contains no module at module.zz."}},
		"one of several":   {args: []string{"terraform_data.a", "nope.nope"}, want: []string{"Error: Unknown resource"}},
		"bad address":      {args: []string{"bad[["}, want: []string{"Error: Index value required", "(source code not available)"}},
		"missing -state":   {args: []string{"-state=nope.tfstate"}, want: []string{"No state file was found"}},
		"bad flag":         {args: []string{"-bogus"}, want: []string{"Error parsing command-line flags: flag provided but not defined: -bogus"}},
	}
	for name, tc := range errs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := mustFailUnchanged(t, dir, state, tc.want, append([]string{"state", "list", "-no-color"}, tc.args...)...)
			if name == "bad flag" {
				// As Terraform: the usage on stdout.
				if !strings.HasPrefix(r.stdout, "Usage: strata [global options] state list") {
					t.Errorf("no usage on stdout after a bad flag:\n%s", r.stdout)
				}
			} else if r.stdout != "" {
				t.Errorf("stdout is not empty on error:\n%s", r.stdout)
			}
		})
	}
}

func TestE2EStateShow(t *testing.T) {
	t.Parallel()
	dir, state := appliedStateDir(t)
	r := mustStrata(t, dir, 0, "state", "show", "-no-color", "terraform_data.b[1]")
	want := lines(
		"# terraform_data.b[1]:",
		`resource "terraform_data" "b" {`,
		fmt.Sprintf(`    id     = %q`, instanceID(t, state, "terraform_data.b[1]")),
		"    input  = 1",
		"    output = 1",
		"}")
	if r.stdout != want {
		t.Errorf("wrong output\n--- want\n%s--- got\n%s", want, r.stdout)
	}
	// The same block as in `strata show`.
	show := mustStrata(t, dir, 0, "show", "-no-color")
	for _, addr := range []string{"terraform_data.a", `terraform_data.c["x"]`} {
		one := mustStrata(t, dir, 0, "state", "show", "-no-color", addr)
		if !strings.Contains(show.stdout, one.stdout) {
			t.Errorf("state show %s is not the block `show` prints:\n%s", addr, one.stdout)
		}
	}
	// Colors unless -no-color, and never markup.
	colored := mustStrata(t, dir, 0, "state", "show", "terraform_data.a")
	if strings.Contains(colored.stdout, "[reset]") || strings.Contains(colored.stdout, "[bold]") {
		t.Errorf("markup left in the output:\n%s", colored.stdout)
	}
	// With -state, from another file.
	r = mustStrata(t, dir, 0, "state", "show", "-no-color", "-state=modules.tfstate", `module.k["b"].module.deep.terraform_data.leaf`)
	if !strings.HasPrefix(r.stdout, "# module.k[\"b\"].module.deep.terraform_data.leaf:\nresource \"terraform_data\" \"leaf\" {\n") ||
		!strings.Contains(r.stdout, `input  = "leaf"`) {
		t.Errorf("wrong output:\n%s", r.stdout)
	}

	for name, tc := range map[string]struct {
		args []string
		want []string
	}{
		"whole counted resource": {args: []string{"terraform_data.b"}, want: []string{"No instance found for the given address", `use "strata state list"`}},
		"missing":                {args: []string{"terraform_data.zz"}, want: []string{"No instance found for the given address"}},
		"module":                 {args: []string{"module.m"}, want: []string{"Error parsing instance address: module.m\n\nThis command requires that the address references one specific instance.\nTo view the available instances, use \"strata state list\". Please modify \nthe address to reference a specific instance.\n"}},
		"two addresses":          {args: []string{"terraform_data.a", "terraform_data.b[0]"}, want: []string{"Exactly one argument expected."}},
		"no address":             {want: []string{"Exactly one argument expected."}},
		"no state file":          {args: []string{"-state=nope", "terraform_data.a"}, want: []string{"No state file was found"}},
	} {
		t.Run(name, func(t *testing.T) {
			mustFailUnchanged(t, dir, state, tc.want, append([]string{"state", "show", "-no-color"}, tc.args...)...)
		})
	}
}

func TestE2EStateRm(t *testing.T) {
	t.Parallel()
	dir, state := appliedStateDir(t)
	before := readFile(t, state)
	serial := readStateDoc(t, state).Serial

	// -dry-run lists what would go and changes nothing.
	r := mustStrata(t, dir, 0, "state", "rm", "-dry-run", "terraform_data.b", `terraform_data.c["x"]`)
	if want := lines("Would remove terraform_data.b[0]", "Would remove terraform_data.b[1]", `Would remove terraform_data.c["x"]`); r.stdout != want {
		t.Errorf("wrong dry-run output\n--- want\n%s--- got\n%s", want, r.stdout)
	}
	if !bytes.Equal(before, readFile(t, state)) || len(timestampedBackups(t, state)) != 0 {
		t.Fatal("-dry-run touched the state or wrote a backup")
	}

	// Bad input leaves the state byte-identical.
	for name, tc := range map[string]struct {
		args []string
		want []string
	}{
		"nothing matches": {args: []string{"nope.nope", "terraform_data.b[9]"}, want: []string{"Error: Invalid target address", "No matching objects found."}},
		"bad address":     {args: []string{"terraform_data.a", "bad[["}, want: []string{"Error: Index value required"}},
		"no address":      {want: []string{"At least one address is required."}},
	} {
		t.Run(name, func(t *testing.T) {
			mustFailUnchanged(t, dir, state, tc.want, append([]string{"state", "rm", "-no-color"}, tc.args...)...)
		})
	}
	if len(timestampedBackups(t, state)) != 0 {
		t.Fatal("a failed rm wrote a backup")
	}

	// The real thing: an address matching nothing beside others that do
	// gets a warning, as Terraform goes on without one.
	r = mustStrata(t, dir, 0, "state", "rm", "-no-color", "terraform_data.b", `terraform_data.c["x"]`, "nope.nope")
	want := lines("Removed terraform_data.b[0]", "Removed terraform_data.b[1]", `Removed terraform_data.c["x"]`, "Successfully removed 3 resource instance(s).")
	if !strings.HasPrefix(r.stdout, want) || !strings.Contains(flat(r.stdout), "Warning: No matching objects") {
		t.Errorf("wrong output\n--- want\n%s--- got\n%s", want, r.stdout)
	}
	got := stateInstances(t, state)
	if len(got) != 2 || !strings.HasPrefix(got[0], "terraform_data.a=") || !strings.HasPrefix(got[1], `terraform_data.c["y"]=`) {
		t.Errorf("wrong state after rm: %v", got)
	}
	if s := readStateDoc(t, state).Serial; s != serial+1 {
		t.Errorf("serial %d after rm, want %d", s, serial+1)
	}
	backups := timestampedBackups(t, state)
	if len(backups) != 1 || !bytes.Equal(readFile(t, backups[0]), before) {
		t.Fatalf("want one timestamped backup holding the previous snapshot, got %v", backups)
	}
	if st, err := os.Stat(state); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("state file mode after rm: %v %v", st.Mode(), err)
	}
	// The removed objects are forgotten, not destroyed: the next plan
	// creates them again.
	plan := mustStrata(t, dir, 2, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(plan.stdout, "Plan: 3 to add, 0 to change, 0 to destroy.") {
		t.Errorf("wrong plan after rm:\n%s", plan.stdout)
	}

	// -backup=PATH and -backup=-.
	before = readFile(t, state)
	mustStrata(t, dir, 0, "state", "rm", "-backup=mine.backup", `terraform_data.c["y"]`)
	if !bytes.Equal(readFile(t, filepath.Join(dir, "mine.backup")), before) {
		t.Error("-backup=PATH does not hold the previous snapshot")
	}
	n := len(timestampedBackups(t, state))
	mustStrata(t, dir, 0, "state", "rm", "-backup=-", "terraform_data.a")
	if len(timestampedBackups(t, state)) != n {
		t.Error("-backup=- wrote a backup")
	}
	// Removing everything leaves an empty state, not no state.
	if got := stateInstances(t, state); len(got) != 0 {
		t.Errorf("state not empty: %v", got)
	}
	if s := readStateDoc(t, state).Serial; s != serial+3 {
		t.Errorf("serial %d after three removals, want %d", s, serial+3)
	}

	// Module addresses remove everything below them.
	r = mustStrata(t, dir, 0, "state", "rm", "-state=modules.tfstate", "module.k", "data.terraform_remote_state.r")
	want = lines(`Removed module.k["a"].terraform_data.inner`, `Removed module.k["b"].terraform_data.inner`,
		`Removed module.k["a"].module.deep.terraform_data.leaf`, `Removed module.k["b"].module.deep.terraform_data.leaf`,
		"Removed data.terraform_remote_state.r", "Successfully removed 5 resource instance(s).")
	if r.stdout != want {
		t.Errorf("wrong output\n--- want\n%s--- got\n%s", want, r.stdout)
	}
	if len(timestampedBackups(t, filepath.Join(dir, "modules.tfstate"))) != 1 {
		t.Error("no backup beside the -state file")
	}
}

func TestE2EStateMv(t *testing.T) {
	t.Parallel()
	dir, state := appliedStateDir(t)
	before := readFile(t, state)
	serial := readStateDoc(t, state).Serial
	aID, b1ID := instanceID(t, state, "terraform_data.a"), instanceID(t, state, "terraform_data.b[1]")

	r := mustStrata(t, dir, 0, "state", "mv", "-dry-run", "terraform_data.a", "terraform_data.z")
	if r.stdout != lines(`Would move "terraform_data.a" to "terraform_data.z"`) {
		t.Errorf("wrong dry-run output:\n%s", r.stdout)
	}
	if !bytes.Equal(before, readFile(t, state)) || len(timestampedBackups(t, state)) != 0 {
		t.Fatal("-dry-run touched the state or wrote a backup")
	}

	for name, tc := range map[string]struct {
		args []string
		want []string
	}{
		"missing source":      {args: []string{"terraform_data.zz", "terraform_data.y"}, want: []string{"Error: Invalid source address", "Cannot move terraform_data.zz: does not match anything in the current state."}},
		"destination exists":  {args: []string{"terraform_data.b", "terraform_data.c"}, want: []string{"Error: Invalid target address", "there is already a resource at that address in the current state."}},
		"instance exists":     {args: []string{`terraform_data.c["x"]`, "terraform_data.b[1]"}, want: []string{"there is already a resource instance at that address"}},
		"types differ":        {args: []string{"terraform_data.b", "null_resource.b"}, want: []string{"Error: Invalid state move request", "resource types don't match."}},
		"resource to index":   {args: []string{"terraform_data.b", "terraform_data.z[0]"}, want: []string{"the target must also be a whole resource."}},
		"instance to module":  {args: []string{"terraform_data.b[0]", "module.x"}, want: []string{"the target must also be a resource instance."}},
		"bad destination":     {args: []string{"terraform_data.a", "x"}, want: []string{"Error: Invalid address"}},
		"one argument":        {args: []string{"terraform_data.a"}, want: []string{"Exactly two arguments expected."}},
		"dry-run still fails": {args: []string{"-dry-run", "terraform_data.zz", "terraform_data.y"}, want: []string{"Invalid source address"}},
	} {
		t.Run(name, func(t *testing.T) {
			mustFailUnchanged(t, dir, state, tc.want, append([]string{"state", "mv", "-no-color"}, tc.args...)...)
		})
	}

	// Rename a resource, move an instance to a resource of its own and to
	// a new key, as Terraform prints them.
	steps := []struct{ from, to string }{
		{"terraform_data.a", "terraform_data.z"},
		{"terraform_data.b[1]", "terraform_data.single"},
		{`terraform_data.c["x"]`, `terraform_data.c["w"]`},
	}
	for i, s := range steps {
		r := mustStrata(t, dir, 0, "state", "mv", "-no-color", s.from, s.to)
		if want := fmt.Sprintf("Move %q to %q\nSuccessfully moved 1 object(s).\n", s.from, s.to); r.stdout != want {
			t.Errorf("wrong output\n--- want\n%s--- got\n%s", want, r.stdout)
		}
		if got := readStateDoc(t, state).Serial; got != serial+uint64(i)+1 {
			t.Errorf("serial %d after move %d, want %d", got, i+1, serial+uint64(i)+1)
		}
	}
	if id := instanceID(t, state, "terraform_data.z"); id != aID {
		t.Errorf("terraform_data.z has id %s, want the moved %s", id, aID)
	}
	if id := instanceID(t, state, "terraform_data.single"); id != b1ID {
		t.Errorf("terraform_data.single has id %s, want the moved %s", id, b1ID)
	}
	if got := len(stateInstances(t, state)); got != 5 {
		t.Errorf("%d instances after moves, want 5", got)
	}
	// Each write made a backup of the snapshot before it. Their names hold
	// the time in seconds, so writes within one second share one file,
	// as with Terraform; the first is what was there before any move.
	if len(timestampedBackups(t, state)) == 0 {
		t.Error("no backup written")
	}
	// Moving back restores what the configuration describes.
	for i := len(steps) - 1; i >= 0; i-- {
		mustStrata(t, dir, 0, "state", "mv", steps[i].to, steps[i].from)
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")

	// Modules and data resources, in the state Terraform wrote.
	mods := filepath.Join(dir, "modules.tfstate")
	for _, s := range []struct{ from, to, want string }{
		// A module moves with its children, each module instance reported.
		{"module.m", `module.n["x"]`, lines(`Move "module.m" to "module.n[\"x\"]"`,
			`Move "module.m.module.deep" to "module.n[\"x\"].module.deep"`, "Successfully moved 2 object(s).")},
		{`module.k["a"].module.deep`, "module.top", lines(`Move "module.k[\"a\"].module.deep" to "module.top"`, "Successfully moved 1 object(s).")},
		{"terraform_data.a", "module.top.terraform_data.a", lines(`Move "terraform_data.a" to "module.top.terraform_data.a"`, "Successfully moved 1 object(s).")},
		{"data.terraform_remote_state.r", "data.terraform_remote_state.s", lines(`Move "data.terraform_remote_state.r" to "data.terraform_remote_state.s"`, "Successfully moved 1 object(s).")},
	} {
		r := mustStrata(t, dir, 0, "state", "mv", "-state="+mods, s.from, s.to)
		if r.stdout != s.want {
			t.Errorf("wrong output:\n%s", r.stdout)
		}
	}
	r = mustStrata(t, dir, 0, "state", "list", "-state="+mods)
	want := lines("data.terraform_remote_state.s", "terraform_data.b[0]", "terraform_data.b[1]",
		`module.k["a"].terraform_data.inner`, `module.k["b"].terraform_data.inner`, `module.n["x"].terraform_data.inner`,
		"module.top.terraform_data.a", "module.top.terraform_data.leaf",
		`module.k["b"].module.deep.terraform_data.leaf`, `module.n["x"].module.deep.terraform_data.leaf`)
	if r.stdout != want {
		t.Errorf("wrong state after module moves\n--- want\n%s--- got\n%s", want, r.stdout)
	}
	mustFailUnchanged(t, dir, mods, []string{"there is already a module at that address"}, "state", "mv", "-no-color", "-state="+mods, `module.k["b"]`, `module.n["x"]`)
	mustFailUnchanged(t, dir, mods, []string{"a data resource can be moved only to another data resource address"},
		"state", "mv", "-no-color", "-state="+mods, "data.terraform_remote_state.s", "terraform_remote_state.s")
}

// TestE2EStateMvStateOut moves objects into another state file, new or
// existing, each written with its own backup.
func TestE2EStateMvStateOut(t *testing.T) {
	t.Parallel()
	dir, state := appliedStateDir(t)
	other := filepath.Join(dir, "other.tfstate")
	b0 := instanceID(t, state, "terraform_data.b[0]")

	mustStrata(t, dir, 0, "state", "mv", "-state-out=other.tfstate", "-dry-run", "terraform_data.b", "terraform_data.b")
	if _, err := os.Stat(other); err == nil {
		t.Fatal("-dry-run created the destination state")
	}
	r := mustStrata(t, dir, 0, "state", "mv", "-state-out=other.tfstate", "terraform_data.b", "terraform_data.moved")
	if r.stdout != "Move \"terraform_data.b\" to \"terraform_data.moved\"\nSuccessfully moved 1 object(s).\n" {
		t.Errorf("wrong output:\n%s", r.stdout)
	}
	doc := readStateDoc(t, other)
	if doc.Serial != 1 || doc.Lineage == "" || doc.Lineage == readStateDoc(t, state).Lineage {
		t.Errorf("new destination state: serial %d, lineage %q", doc.Serial, doc.Lineage)
	}
	if id := instanceID(t, other, "terraform_data.moved[0]"); id != b0 {
		t.Errorf("moved object has id %s, want %s", id, b0)
	}
	for _, l := range stateInstances(t, state) {
		if strings.HasPrefix(l, "terraform_data.b") {
			t.Errorf("%s is still in the source state", l)
		}
	}
	if len(timestampedBackups(t, other)) != 0 {
		t.Error("a backup was written for a destination that did not exist")
	}

	// Into the now existing file: its previous snapshot is backed up to
	// -backup-out, the source's to -backup.
	otherBefore, stateBefore := readFile(t, other), readFile(t, state)
	mustStrata(t, dir, 0, "state", "mv", "-state-out=other.tfstate", "-backup=src.backup", "-backup-out=dst.backup", "terraform_data.a", "terraform_data.a")
	if !bytes.Equal(readFile(t, filepath.Join(dir, "dst.backup")), otherBefore) || !bytes.Equal(readFile(t, filepath.Join(dir, "src.backup")), stateBefore) {
		t.Error("-backup and -backup-out do not hold the previous snapshots")
	}
	if got := readStateDoc(t, other).Serial; got != 2 {
		t.Errorf("destination serial %d, want 2", got)
	}
	// A conflict in the destination changes neither file.
	otherBefore = readFile(t, other)
	mustFailUnchanged(t, dir, state, []string{"there is already a resource at that address in the destination state"},
		"state", "mv", "-no-color", "-state-out=other.tfstate", `terraform_data.c`, "terraform_data.a")
	if !bytes.Equal(otherBefore, readFile(t, other)) {
		t.Error("a refused move changed the destination state")
	}
	// -state-out naming the source itself is an ordinary move.
	mustStrata(t, dir, 0, "state", "mv", "-state-out=terraform.tfstate", `terraform_data.c["x"]`, `terraform_data.c["v"]`)
	instanceID(t, state, `terraform_data.c["v"]`)
}
