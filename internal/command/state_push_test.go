package command

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editState returns a copy of a state document with fields replaced.
func editState(t *testing.T, src []byte, set map[string]any) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		doc[k] = v
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestE2EStatePull(t *testing.T) {
	t.Parallel()
	dir := workdir(t, "statecmd")
	// No state: nothing, successfully, as with Terraform.
	if r := mustInProcess(t, dir, 0, "state", "pull"); r.stdout != "" {
		t.Errorf("pull without state printed %q", r.stdout)
	}
	mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")
	state := filepath.Join(dir, "terraform.tfstate")
	r := mustInProcess(t, dir, 0, "state", "pull")
	// The document as stored, then Terraform's extra newline.
	if r.stdout != string(readFile(t, state))+"\n" {
		t.Errorf("pull is not the state file:\n%s", r.stdout)
	}
	// A state Terraform wrote comes out byte for byte.
	tfDir := t.TempDir()
	writeFile(t, filepath.Join(tfDir, "terraform.tfstate"), string(readFile(t, filepath.Join(dir, "modules.tfstate"))))
	r = mustInProcess(t, tfDir, 0, "state", "pull")
	if r.stdout != string(readFile(t, filepath.Join(tfDir, "terraform.tfstate")))+"\n" {
		t.Errorf("pull of Terraform's state differs from the file:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(tfDir, "terraform.tfstate.backup")); err == nil {
		t.Error("pull wrote the state")
	}
	// Broken state: an error on stderr, nothing on stdout.
	writeFile(t, filepath.Join(tfDir, "terraform.tfstate"), "{")
	r = mustFailUnchanged(t, tfDir, filepath.Join(tfDir, "terraform.tfstate"), []string{"Failed to load state"}, "state", "pull", "-no-color")
	if r.stdout != "" {
		t.Errorf("stdout on error: %q", r.stdout)
	}
}

func TestE2EStatePush(t *testing.T) {
	t.Parallel()
	dir, state := appliedStateDir(t)
	current := readFile(t, state)
	doc := readStateDoc(t, state)

	// A pulled copy, edited.
	pulled := mustInProcess(t, dir, 0, "state", "pull").stdout
	write := func(name string, data []byte) string {
		writeFile(t, filepath.Join(dir, name), string(data))
		return name
	}
	fewer := func(serial uint64, n int) []byte {
		var d map[string]any
		_ = json.Unmarshal([]byte(pulled), &d)
		d["resources"] = d["resources"].([]any)[:n] // the first n resources
		d["serial"] = serial
		out, _ := json.MarshalIndent(d, "", "  ")
		return out
	}
	older := write("older.json", fewer(doc.Serial-1, 1))
	sameSerial := write("same-serial.json", fewer(doc.Serial, 1))
	unrelated := write("unrelated.json", editState(t, []byte(pulled), map[string]any{"lineage": "someone-else", "serial": doc.Serial + 5}))
	newer := write("newer.json", fewer(doc.Serial+3, 2))
	write("garbage.json", []byte("not a state"))

	for name, tc := range map[string]struct {
		args []string
		want []string
	}{
		"lower serial": {args: []string{older}, want: []string{"Error: Failed to write state",
			"Cannot import state with serial " + itoa(doc.Serial-1) + " over newer state with serial " + itoa(doc.Serial) + ".", "use -force"}},
		"same serial, different content": {args: []string{sameSerial}, want: []string{"Cannot overwrite existing state with serial " + itoa(doc.Serial) + " with a different state that has the same serial."}},
		"other lineage":                  {args: []string{unrelated}, want: []string{`Cannot import state with lineage "someone-else" over unrelated state with lineage "` + doc.Lineage + `".`}},
		"not a state":                    {args: []string{"garbage.json"}, want: []string{`Error reading source state "garbage.json": the state file could not be parsed as JSON`}},
		"missing file":                   {args: []string{"nope.json"}, want: []string{"open nope.json: no such file or directory\n"}},
		"no path":                        {want: []string{"Exactly one argument expected."}},
	} {
		t.Run(name, func(t *testing.T) {
			mustFailUnchanged(t, dir, state, tc.want, append([]string{"state", "push", "-no-color"}, tc.args...)...)
		})
	}
	if len(timestampedBackups(t, state)) != 0 {
		t.Fatal("a refused push wrote a backup")
	}

	// Pushing what is already there changes nothing.
	mustInProcess(t, dir, 0, "state", "push", write("pulled.json", []byte(pulled)))
	if !bytes.Equal(current, readFile(t, state)) {
		t.Error("pushing the current state rewrote it")
	}

	// A newer snapshot of the same lineage replaces the state, keeping its
	// serial as Terraform does, with a backup of what was there.
	r := mustInProcess(t, dir, 0, "state", "push", newer)
	if r.stdout != "" {
		t.Errorf("push printed %q", r.stdout)
	}
	if got := readStateDoc(t, state); got.Serial != doc.Serial+3 || len(got.Resources) != 2 || got.Lineage != doc.Lineage {
		t.Errorf("after push: serial %d, %d resources, lineage %s", got.Serial, len(got.Resources), got.Lineage)
	}
	backups := timestampedBackups(t, state)
	if len(backups) != 1 || !bytes.Equal(readFile(t, backups[0]), current) {
		t.Fatalf("want one backup of the previous snapshot, got %v", backups)
	}

	// -force writes an older or unrelated state; the serial still moves
	// forward so that nothing mistakes it for an old snapshot.
	before := readStateDoc(t, state).Serial
	mustInProcess(t, dir, 0, "state", "push", "-force", older)
	if got := readStateDoc(t, state); got.Serial != before+1 || len(got.Resources) != 1 {
		t.Errorf("after -force push of an older state: serial %d, want %d", got.Serial, before+1)
	}
	// From standard input, with "-".
	r = runIn(t, dir, string(readFile(t, filepath.Join(dir, unrelated))), strataBin, "state", "push", "-force", "-")
	if r.code != 0 {
		t.Fatalf("push -: %d\n%s", r.code, r.stderr)
	}
	if got := readStateDoc(t, state); got.Lineage != "someone-else" || len(got.Resources) != 3 {
		t.Errorf("after push from stdin: lineage %s, %d resources", got.Lineage, len(got.Resources))
	}
	r = runIn(t, dir, "garbage", strataBin, "state", "push", "-no-color", "-")
	if r.code != 1 || !strings.Contains(r.stderr, `Error reading source state "-":`) {
		t.Errorf("push of garbage from stdin: %d\n%s", r.code, r.stderr)
	}

	// Into a directory with no state yet.
	empty := t.TempDir()
	mustInProcess(t, empty, 0, "state", "push", filepath.Join(dir, older))
	if got := readStateDoc(t, filepath.Join(empty, "terraform.tfstate")); got.Lineage != doc.Lineage {
		t.Errorf("pushed into an empty directory: lineage %s", got.Lineage)
	}
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestE2EStateReplaceProvider(t *testing.T) {
	t.Parallel()
	dir, state := appliedStateDir(t)
	const (
		from = "terraform.io/builtin/terraform"
		to   = "example.com/acme/terraform"
	)
	providers := func() []string {
		var ret []string
		for _, r := range readStateDoc(t, state).Resources {
			ret = append(ret, r.Provider)
		}
		return ret
	}
	listing := lines(
		"strata will perform the following actions:",
		"",
		"  ~ Updating provider:",
		"    - "+from,
		"    + "+to,
		"",
		"Changing 3 resources:",
		"",
		"  terraform_data.a",
		"  terraform_data.b",
		"  terraform_data.c")
	prompt := "Do you want to make these changes?\nOnly 'yes' will be accepted to continue.\n\nEnter a value: "

	// Declined: nothing changes and, as with Terraform, that is success.
	before := readFile(t, state)
	r := runIn(t, dir, "no\n", strataBin, "state", "replace-provider", "-no-color", from, to)
	if r.code != 0 || r.stdout != listing+"\n"+prompt+"Cancelled replacing providers.\n" {
		t.Errorf("declined: exit %d\n%s", r.code, r.stdout)
	}
	// No answer at all is an error.
	r = mustFailUnchanged(t, dir, state, []string{"Error asking for approval"}, "state", "replace-provider", "-no-color", from, to)
	if !bytes.Equal(before, readFile(t, state)) || len(timestampedBackups(t, state)) != 0 {
		t.Fatal("an unapproved replace-provider touched the state")
	}

	r = runIn(t, dir, "yes\n", strataBin, "state", "replace-provider", "-no-color", from, to)
	if r.code != 0 || r.stdout != listing+"\n"+prompt+"\nSuccessfully replaced provider for 3 resources.\n" {
		t.Errorf("approved: exit %d\n%s", r.code, r.stdout)
	}
	for _, p := range providers() {
		if p != `provider["`+to+`"]` {
			t.Errorf("provider %s after replace-provider", p)
		}
	}
	if got := readStateDoc(t, state).Serial; got != readStateDocBytes(t, before).Serial+1 {
		t.Errorf("serial %d after replace-provider", got)
	}
	if b := timestampedBackups(t, state); len(b) != 1 || !bytes.Equal(readFile(t, b[0]), before) {
		t.Errorf("want one backup of the previous snapshot, got %v", b)
	}

	// -auto-approve, and back: the plan has nothing to do again.
	r = mustInProcess(t, dir, 0, "state", "replace-provider", "-auto-approve", "-no-color", "example.com/acme/terraform", "terraform.io/builtin/terraform")
	if !strings.HasSuffix(r.stdout, "  terraform_data.c\n\nSuccessfully replaced provider for 3 resources.\n") || strings.Contains(r.stdout, "Enter a value") {
		t.Errorf("-auto-approve:\n%s", r.stdout)
	}
	mustInProcess(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")

	// Nothing to replace.
	before = readFile(t, state)
	r = mustInProcess(t, dir, 0, "state", "replace-provider", "-auto-approve", "hashicorp/aws", "acme/aws")
	if r.stdout != "No matching resources found.\n" || !bytes.Equal(before, readFile(t, state)) {
		t.Errorf("no match: %q", r.stdout)
	}
	mustFailUnchanged(t, dir, state, []string{`Error: Invalid "from" provider "a/b/c/d"`}, "state", "replace-provider", "-no-color", "-auto-approve", "a/b/c/d", "acme/x")
	mustFailUnchanged(t, dir, state, []string{`Error: Invalid "to" provider "a//b"`}, "state", "replace-provider", "-no-color", "-auto-approve", from, "a//b")
	mustFailUnchanged(t, dir, state, []string{"No state file was found"}, "state", "replace-provider", "-no-color", "-state=nope", from, to)
}

func readStateDocBytes(t *testing.T, data []byte) stateDoc {
	t.Helper()
	var doc stateDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}
