package command

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// terraformBin returns the terraform the comparisons run (see
// referenceTerraform), or skips the test.
func terraformBin(t *testing.T) string {
	t.Helper()
	bin, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed on this machine, so state compatibility with it cannot be checked")
	}
	return bin
}

// liveTerraform returns the installed terraform, or skips the test, for
// a test whose terraform runs cannot be recorded (they reach a server
// whose address is not in the key, or run terraform other than through
// runWith): its runs through runWith are never recorded nor replayed.
func liveTerraform(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not installed on this machine")
	}
	liveTests.Store(t.Name(), true)
	return bin
}

// TestE2ETerraformReadsStrataState: a state strata wrote is read by
// Terraform, which then plans no changes; and the other way round.
func TestE2ETerraformStateCompatibility(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	for _, name := range []string{"basic", "quickstart"} {
		t.Run("strata to terraform/"+name, func(t *testing.T) {
			dir := compatDir(t, name)
			mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
			if r := runIn(t, dir, "", tf, "init", "-no-color", "-input=false"); r.code != 0 {
				t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
			}
			r := runIn(t, dir, "", tf, "plan", "-no-color", "-input=false", "-detailed-exitcode")
			if r.code != 0 {
				t.Fatalf("terraform plans changes (exit %d) on a state strata wrote:\n%s%s", r.code, r.stdout, r.stderr)
			}
			// Terraform can also destroy what strata created.
			if r := runIn(t, dir, "", tf, "destroy", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
				t.Fatalf("terraform destroy: %s%s", r.stdout, r.stderr)
			}
		})
		t.Run("terraform to strata/"+name, func(t *testing.T) {
			dir := compatDir(t, name)
			if r := runIn(t, dir, "", tf, "init", "-no-color", "-input=false"); r.code != 0 {
				t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
			}
			if r := runIn(t, dir, "", tf, "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
				t.Fatalf("terraform apply: %s%s", r.stdout, r.stderr)
			}
			r := mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
			if !strings.Contains(flat(r.stdout), "No changes.") {
				t.Fatalf("strata plans changes on a state Terraform wrote:\n%s", r.stdout)
			}
			// After strata applies (a no-op that still writes), Terraform
			// still reads the state and plans nothing.
			mustStrata(t, dir, 0, "destroy", "-auto-approve", "-no-color")
		})
	}
}

// compatDir returns a working copy of a test configuration: a testdata
// case or the quickstart example.
func compatDir(t *testing.T, name string) string {
	t.Helper()
	if name != "quickstart" {
		return workdir(t, name)
	}
	dir := t.TempDir()
	src := readFile(t, filepath.Join("..", "..", "examples", "quickstart", "main.tf"))
	writeFile(t, filepath.Join(dir, "main.tf"), string(src))
	return dir
}

// TestE2EPlansMatchTerraform applies step1.tf of each testdata/compat case
// with Terraform, switches to step2.tf, and checks that strata's plan of
// the same state is Terraform's, word for word apart from the product
// name.
func TestE2EPlansMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	cases, err := os.ReadDir(filepath.Join("testdata", "compat"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		name := c.Name()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join("testdata", "compat", name)
			dir := t.TempDir()
			copyModules(t, src, dir)
			writeFile(t, filepath.Join(dir, "main.tf"), string(readFile(t, filepath.Join(src, "step1.tf"))))
			if r := runIn(t, dir, "", tf, "init", "-no-color", "-input=false"); r.code != 0 {
				t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
			}
			if r := runIn(t, dir, "", tf, "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
				t.Fatalf("terraform apply: %s%s", r.stdout, r.stderr)
			}
			// strata warns about a state readable by all that holds
			// sensitive values (its own difference, tested in
			// TestE2EStateReadableWarning); give Terraform's state the
			// mode strata writes so that the plans compare as they are.
			if err := os.Chmod(filepath.Join(dir, "terraform.tfstate"), 0o600); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "main.tf"), string(readFile(t, filepath.Join(src, "step2.tf"))))
			if _, err := os.Stat(filepath.Join(src, "step2")); err == nil {
				copyModules(t, filepath.Join(src, "step2"), dir)
			}
			if _, err := os.Stat(filepath.Join(src, "modules")); err == nil {
				// Terraform wants init again for module calls step 2 adds;
				// strata reads local modules without it.
				if r := runIn(t, dir, "", tf, "init", "-no-color", "-input=false"); r.code != 0 {
					t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
				}
			}
			args := []string{"plan", "-no-color", "-input=false"}
			if extra, err := os.ReadFile(filepath.Join(src, "args")); err == nil {
				args = append(args, strings.Fields(string(extra))...)
			}
			want := runIn(t, dir, "", tf, args...)
			// Configuration generated by Terraform must not stop strata
			// writing its own; both must say the same.
			generated := ""
			for _, a := range args {
				if path, ok := strings.CutPrefix(a, "-generate-config-out="); ok {
					generated = filepath.Join(dir, path)
				}
			}
			var wantGenerated []byte
			if generated != "" {
				wantGenerated, _ = os.ReadFile(generated)
				_ = os.Remove(generated)
			}
			got := strata(t, dir, args...)
			if generated != "" {
				gotGenerated, _ := os.ReadFile(generated)
				if w := strings.ReplaceAll(string(wantGenerated), "Terraform", "strata"); string(gotGenerated) != w {
					t.Errorf("generated configuration differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", w, gotGenerated)
				}
			}
			if got.code != want.code {
				t.Fatalf("exit code %d, terraform %d\n%s%s", got.code, want.code, got.stdout, got.stderr)
			}
			// Terraform 1.11 leaves out its "Config generation is
			// experimental" warning now and then under load; strata always
			// prints it, so it is not compared.
			experimental := "\nWarning: Config generation is experimental\n\nGenerating configuration during import is currently experimental, and the\ngenerated configuration format may change in future versions.\n"
			want.stdout = strings.Replace(want.stdout, experimental, "", 1)
			got.stdout = strings.Replace(got.stdout, experimental, "", 1)
			w := normalize(strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply").Replace(want.stdout))
			// Replacing the product name can move where messages wrap, so
			// line breaks inside them do not count.
			if g := normalize(got.stdout); g != w && flat(g) != flat(w) {
				t.Errorf("plan differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", w, g)
			}
		})
	}
}

// TestE2EImportMatchesTerraform imports the same object with both tools:
// same output, same state, and no changes planned afterwards.
func TestE2EImportMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	run := func(bin string) (string, string) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"x\" {\n  count = 2\n}\n")
		if bin == tf {
			runIn(t, dir, "", tf, "init", "-no-color")
		}
		r := runIn(t, dir, "", bin, "import", "-no-color", "terraform_data.x[1]", "abc")
		if r.code != 0 {
			t.Fatalf("%s import: %s%s", bin, r.stdout, r.stderr)
		}
		again := runIn(t, dir, "", bin, "import", "-no-color", "terraform_data.x[1]", "abc")
		if again.code != 1 || !strings.Contains(flat(again.stderr), "Resource already managed by") {
			t.Fatalf("%s: second import: %+v", bin, again)
		}
		missing := runIn(t, dir, "", bin, "import", "-no-color", "terraform_data.nope", "abc")
		if missing.code != 1 {
			t.Fatalf("%s: import to an unconfigured address succeeded", bin)
		}
		var st struct {
			Resources []map[string]any `json:"resources"`
		}
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
			t.Fatal(err)
		}
		res, _ := json.Marshal(st.Resources)
		return strings.NewReplacer("Terraform", "strata").Replace(r.stdout), string(res)
	}
	wantOut, wantState := run(tf)
	gotOut, gotState := run(strataBin)
	if gotOut != wantOut {
		t.Errorf("import output differs:\n--- terraform\n%s\n--- strata\n%s", wantOut, gotOut)
	}
	if gotState != wantState {
		t.Errorf("imported state differs:\n--- terraform\n%s\n--- strata\n%s", wantState, gotState)
	}
}

// TestE2EMovedApply: applying a plan with moves records the new addresses,
// after which neither tool plans changes, and the JSON documents name the
// previous addresses.
func TestE2EMovedApply(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), string(readFile(t, filepath.Join("testdata", "compat", "moved_resource", "step1.tf"))))
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	writeFile(t, filepath.Join(dir, "main.tf"), string(readFile(t, filepath.Join("testdata", "compat", "moved_resource", "step2.tf"))))
	mustStrata(t, dir, 2, "plan", "-no-color", "-detailed-exitcode", "-out=p")
	js := mustStrata(t, dir, 0, "show", "-json", "p")
	if !strings.Contains(js.stdout, `"previous_address":"terraform_data.old[0]"`) {
		t.Fatalf("plan JSON lacks previous_address:\n%s", js.stdout)
	}
	stream := mustStrata(t, dir, 0, "plan", "-json")
	if !strings.Contains(stream.stdout, `"action":"move"`) {
		t.Fatalf("-json stream lacks the move:\n%s", stream.stdout)
	}
	mustStrata(t, dir, 0, "apply", "-no-color", "p")
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	if tf, err := referenceTerraform(); err == nil {
		runIn(t, dir, "", tf, "init", "-no-color")
		if r := runIn(t, dir, "", tf, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
			t.Fatalf("terraform plans changes after strata applied the moves:\n%s%s", r.stdout, r.stderr)
		}
	}
}

// TestE2ERemovedForget: applying a removed block with destroy = false
// drops the object from the state and destroys nothing.
func TestE2ERemovedForget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), string(readFile(t, filepath.Join("testdata", "compat", "removed", "step1.tf"))))
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	writeFile(t, filepath.Join(dir, "main.tf"), string(readFile(t, filepath.Join("testdata", "compat", "removed", "step2.tf"))))
	r := mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if strings.Contains(r.stdout, "Destroying") || !strings.Contains(r.stdout, "Apply complete! Resources: 0 added, 0 changed, 0 destroyed.") {
		t.Fatalf("forgetting destroyed something:\n%s", r.stdout)
	}
	if l := mustStrata(t, dir, 0, "state", "list"); strings.TrimSpace(l.stdout) != "terraform_data.b" {
		t.Fatalf("state after forgetting: %q", l.stdout)
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
}

// TestE2EImportBlockApply: an import block's object is recorded by apply,
// after which both tools plan no changes.
func TestE2EImportBlockApply(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), string(readFile(t, filepath.Join("testdata", "compat", "import_block", "step2.tf"))))
	r := mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	for _, want := range []string{"terraform_data.x: Importing... [id=abc]", "terraform_data.x: Import complete [id=abc]", "Apply complete! Resources: 2 imported, 1 added, 1 changed, 0 destroyed."} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("apply output lacks %q:\n%s", want, r.stdout)
		}
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	if tf, err := referenceTerraform(); err == nil {
		runIn(t, dir, "", tf, "init", "-no-color")
		if r := runIn(t, dir, "", tf, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
			t.Fatalf("terraform plans changes after strata's imports:\n%s%s", r.stdout, r.stderr)
		}
	}
}

// TestE2ERemoteState reads another configuration's outputs through
// terraform_remote_state with the local backend, as Terraform does.
func TestE2ERemoteState(t *testing.T) {
	t.Parallel()
	producer := t.TempDir()
	writeFile(t, filepath.Join(producer, "main.tf"), `output "net" {
  value = { cidr = "10.0.0.0/16", zones = ["a", "b"] }
}`)
	mustStrata(t, producer, 0, "apply", "-auto-approve", "-no-color")
	consumer := t.TempDir()
	writeFile(t, filepath.Join(consumer, "main.tf"), fmt.Sprintf(`data "terraform_remote_state" "net" {
  backend = "local"
  config = {
    path = %q
  }
  defaults = {
    missing = "fallback"
  }
}
resource "terraform_data" "uses" {
  input = data.terraform_remote_state.net.outputs.net.zones[1]
}
output "cidr" {
  value = data.terraform_remote_state.net.outputs.net.cidr
}
output "fallback" {
  value = data.terraform_remote_state.net.outputs.missing
}
`, filepath.Join(producer, "terraform.tfstate")))
	mustStrata(t, consumer, 0, "apply", "-auto-approve", "-no-color")
	if r := mustStrata(t, consumer, 0, "output", "-raw", "cidr"); r.stdout != "10.0.0.0/16" {
		t.Fatalf("cidr = %q", r.stdout)
	}
	if r := mustStrata(t, consumer, 0, "output", "-raw", "fallback"); r.stdout != "fallback" {
		t.Fatalf("fallback = %q", r.stdout)
	}
	mustStrata(t, consumer, 0, "plan", "-no-color", "-detailed-exitcode")
	if tf, err := referenceTerraform(); err == nil {
		runIn(t, consumer, "", tf, "init", "-no-color")
		if r := runIn(t, consumer, "", tf, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
			t.Fatalf("terraform plans changes on strata's state:\n%s%s", r.stdout, r.stderr)
		}
	}
}

// TestE2EConsole evaluates expressions against the state and
// configuration, printing values as terraform console does: with input
// piped in, only the last line's result.
func TestE2EConsole(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "variable \"n\" {\n  default = 3\n}\nlocals {\n  doubled = var.n * 2\n}\nresource \"terraform_data\" \"a\" {\n  count = 2\n  input = \"v${count.index}\"\n}\n")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	exprs := []string{"local.doubled", "terraform_data.a[1].output", `{ a = [1,2], b = "x" }`, `upper("hi")`}
	wants := []string{"6\n", "\"v1\"\n", "{\n  \"a\" = [\n    1,\n    2,\n  ]\n  \"b\" = \"x\"\n}\n", "\"HI\"\n"}
	for i, e := range exprs {
		if r := runIn(t, dir, e+"\n", strataBin, "console"); r.code != 0 || r.stdout != wants[i] {
			t.Errorf("console %s: exit %d\n%q\nwant\n%q\n%s", e, r.code, r.stdout, wants[i], r.stderr)
		}
	}
	piped := strings.Join(exprs, "\n") + "\n"
	if r := runIn(t, dir, piped, strataBin, "console"); r.code != 0 || r.stdout != wants[len(wants)-1] {
		t.Errorf("console with %d lines: exit %d\n%q\nwant the last result only\n%s", len(exprs), r.code, r.stdout, r.stderr)
	}
	if tf, err := referenceTerraform(); err == nil {
		runIn(t, dir, "", tf, "init", "-no-color")
		for _, in := range []string{piped, "", "\n", "help\n", "1\nexit\n2\n", "1/0\n", "1\n\n"} {
			got, want := runIn(t, dir, in, strataBin, "console"), runIn(t, dir, in, tf, "console")
			if got.code != want.code || got.stdout != strings.ReplaceAll(want.stdout, "Terraform", "strata") {
				t.Errorf("console with %q: strata exit %d %q, terraform exit %d %q", in, got.code, got.stdout, want.code, want.stdout)
			}
		}
		for _, e := range exprs {
			if got, wantOne := runIn(t, dir, e+"\n", strataBin, "console").stdout, runIn(t, dir, e+"\n", tf, "console").stdout; got != wantOne {
				t.Errorf("%s: strata %q, terraform %q", e, got, wantOne)
			}
		}
	}
	if r := runIn(t, dir, "nope.x\n", strataBin, "console"); r.code != 1 || !strings.Contains(r.stderr, "Reference to undeclared resource") {
		t.Fatalf("invalid expression: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); err == nil {
		t.Fatal("console left the state locked")
	}
}

// TestE2EProvidersSchemaMatchesTerraform: the built-in provider's schema
// document equals Terraform's (provider-defined functions aside).
func TestE2EProvidersSchemaMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `resource "terraform_data" "a" {}`)
	runIn(t, dir, "", tf, "init", "-no-color")
	var want, got map[string]any
	if err := json.Unmarshal([]byte(runIn(t, dir, "", tf, "providers", "schema", "-json").stdout), &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(mustStrata(t, dir, 0, "providers", "schema", "-json").stdout), &got); err != nil {
		t.Fatal(err)
	}
	// The built-in functions' descriptions are strata's own; the plugin
	// test in e2e_schema_json_test.go compares functions byte for byte.
	delete(want["provider_schemas"].(map[string]any)["terraform.io/builtin/terraform"].(map[string]any), "functions")
	delete(got["provider_schemas"].(map[string]any)["terraform.io/builtin/terraform"].(map[string]any), "functions")
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if string(w) != string(g) {
		t.Fatalf("schema documents differ:\n--- terraform\n%s\n--- strata\n%s", w, g)
	}
}

// copyModules copies a compat case's subdirectories (its child modules)
// into the working directory. A case's step2 directory holds the module
// files that change for the second step.
func copyModules(t *testing.T, src, dir string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if filepath.Dir(rel) == "." || strings.HasPrefix(rel, "step2"+string(filepath.Separator)) {
			return nil // step files, args, and the second step's modules
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		writeFile(t, filepath.Join(dir, rel), string(readFile(t, path)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
