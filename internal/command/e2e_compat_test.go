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

// terraformBin returns the installed terraform, or skips the test.
func terraformBin(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not installed on this machine, so state compatibility with it cannot be checked")
	}
	return bin
}

// TestE2ETerraformReadsStrataState: a state strata wrote is read by
// Terraform, which then plans no changes; and the other way round.
func TestE2ETerraformStateCompatibility(t *testing.T) {
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
			got := strata(t, dir, args...)
			if got.code != want.code {
				t.Fatalf("exit code %d, terraform %d\n%s%s", got.code, want.code, got.stdout, got.stderr)
			}
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
	if tf, err := exec.LookPath("terraform"); err == nil {
		runIn(t, dir, "", tf, "init", "-no-color")
		if r := runIn(t, dir, "", tf, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
			t.Fatalf("terraform plans changes after strata applied the moves:\n%s%s", r.stdout, r.stderr)
		}
	}
}

// TestE2ERemovedForget: applying a removed block with destroy = false
// drops the object from the state and destroys nothing.
func TestE2ERemovedForget(t *testing.T) {
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
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), string(readFile(t, filepath.Join("testdata", "compat", "import_block", "step2.tf"))))
	r := mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	for _, want := range []string{"terraform_data.x: Importing... [id=abc]", "terraform_data.x: Import complete [id=abc]", "Apply complete! Resources: 2 imported, 1 added, 1 changed, 0 destroyed."} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("apply output lacks %q:\n%s", want, r.stdout)
		}
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	if tf, err := exec.LookPath("terraform"); err == nil {
		runIn(t, dir, "", tf, "init", "-no-color")
		if r := runIn(t, dir, "", tf, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
			t.Fatalf("terraform plans changes after strata's imports:\n%s%s", r.stdout, r.stderr)
		}
	}
}

// TestE2ERemoteState reads another configuration's outputs through
// terraform_remote_state with the local backend, as Terraform does.
func TestE2ERemoteState(t *testing.T) {
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
	if tf, err := exec.LookPath("terraform"); err == nil {
		runIn(t, consumer, "", tf, "init", "-no-color")
		if r := runIn(t, consumer, "", tf, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
			t.Fatalf("terraform plans changes on strata's state:\n%s%s", r.stdout, r.stderr)
		}
	}
}

// TestE2EConsole evaluates expressions against the state and
// configuration, one per line, printing values as terraform console does.
func TestE2EConsole(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "variable \"n\" {\n  default = 3\n}\nlocals {\n  doubled = var.n * 2\n}\nresource \"terraform_data\" \"a\" {\n  count = 2\n  input = \"v${count.index}\"\n}\n")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	exprs := []string{"local.doubled", "terraform_data.a[1].output", `{ a = [1,2], b = "x" }`, `upper("hi")`}
	r := runIn(t, dir, strings.Join(exprs, "\n")+"\n", strataBin, "console")
	want := "6\n\"v1\"\n{\n  \"a\" = [\n    1,\n    2,\n  ]\n  \"b\" = \"x\"\n}\n\"HI\"\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("console: exit %d\n%q\nwant\n%q\n%s", r.code, r.stdout, want, r.stderr)
	}
	if tf, err := exec.LookPath("terraform"); err == nil {
		runIn(t, dir, "", tf, "init", "-no-color")
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
	delete(want["provider_schemas"].(map[string]any)["terraform.io/builtin/terraform"].(map[string]any), "functions")
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
