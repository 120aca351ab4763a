package command

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestE2EStateCommandsMatchTerraform runs the same state commands with
// strata and with Terraform, each on its own copy of a state Terraform
// wrote, and checks that they print the same output (with "Terraform"
// read as "strata"), exit with the same codes, and leave the same
// resources in the state.
func TestE2EStateCommandsMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	strataDir, tfDir := workdir(t, "statecmd"), workdir(t, "statecmd")
	for _, dir := range []string{strataDir, tfDir} {
		writeFile(t, filepath.Join(dir, "terraform.tfstate"), string(readFile(t, filepath.Join(dir, "modules.tfstate"))))
	}
	aID := instanceID(t, filepath.Join(strataDir, "terraform.tfstate"), "terraform_data.a")

	steps := [][]string{
		{"state", "list"},
		{"state", "list", "module.k"},
		{"state", "list", `module.k["a"]`, "terraform_data.b"},
		{"state", "list", "-id=" + aID},
		{"state", "list", "-id=nope"},
		{"state", "list", "nope.nope"},
		{"state", "list", "module.zz"},
		{"state", "show", "terraform_data.b[1]"},
		{"state", "show", `module.k["b"].module.deep.terraform_data.leaf`},
		{"state", "show", "terraform_data.b"},
		{"state", "rm", "-dry-run", "module.k"},
		{"state", "rm", "nope.nope"},
		{"state", "mv", "-dry-run", "terraform_data.a", "terraform_data.z"},
		{"state", "mv", "terraform_data.a", "terraform_data.z"},
		{"state", "mv", "terraform_data.b[1]", "terraform_data.single"},
		{"state", "mv", "terraform_data.single", "terraform_data.b[7]"},
		{"state", "mv", "module.m", `module.n["x"]`},
		{"state", "mv", `module.k["a"].module.deep`, "module.top"},
		{"state", "mv", "terraform_data.z", "module.top.terraform_data.z"},
		{"state", "mv", "terraform_data.nope", "terraform_data.x"},
		{"state", "mv", "terraform_data.b", "null_resource.b"},
		{"state", "mv", "module.top.terraform_data.z", "module.top.terraform_data.leaf"},
		{"state", "rm", `module.k["b"]`, "terraform_data.b[0]"},
		{"taint", "module.top.terraform_data.leaf"},
		{"untaint", "module.top.terraform_data.leaf"},
		{"untaint", "module.top.terraform_data.leaf"},
		{"taint", "terraform_data.b[7]"},
		{"taint", "nope.nope"},
		{"state", "replace-provider", "-auto-approve", "terraform.io/builtin/terraform", "example.com/acme/terraform"},
		{"state", "replace-provider", "-auto-approve", "hashicorp/aws", "acme/aws"},
		{"state", "list"},
	}
	for _, args := range steps {
		args = withFlag(args, "-no-color")
		want := runIn(t, tfDir, "", tf, args...)
		got := strata(t, strataDir, args...)
		name := strings.Join(args, " ")
		if got.code != want.code {
			t.Errorf("%s: exit code %d, Terraform's %d\nstrata:\n%s%s\nTerraform:\n%s%s", name, got.code, want.code, got.stdout, got.stderr, want.stdout, want.stderr)
			continue
		}
		wantOut, gotOut := strings.ReplaceAll(want.stdout, "Terraform", "strata"), got.stdout
		if args[1] == "replace-provider" || args[1] == "mv" && moduleAddrRe.MatchString(args[len(args)-2]) {
			// Terraform lists the resources, or the module instances it
			// moved, in map order, which varies from run to run.
			wantOut, gotOut = sortedLines(wantOut), sortedLines(gotOut)
		}
		if gotOut != wantOut {
			t.Errorf("%s: output differs from Terraform's\n--- Terraform\n%s--- strata\n%s", name, wantOut, got.stdout)
		}
	}

	// The same resources, attribute for attribute, in the same order.
	resources := func(dir string) string {
		var doc struct{ Resources json.RawMessage }
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &doc); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := json.Indent(&b, doc.Resources, "", "  "); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if got, want := resources(strataDir), resources(tfDir); got != want {
		t.Errorf("the states differ\n--- Terraform\n%s\n--- strata\n%s", want, got)
	}
	// Each reads the other's result.
	for _, dir := range []string{strataDir, tfDir} {
		if r := runIn(t, dir, "", tf, "state", "list"); r.code != 0 {
			t.Errorf("Terraform cannot read the state in %s: %s", dir, r.stderr)
		}
		mustStrata(t, dir, 0, "state", "list")
	}
}

// moduleAddrRe matches the address of a module instance (not of a
// resource in it).
var moduleAddrRe = regexp.MustCompile(`^module\.[\w-]+(\[[^\]]*\])?(\.module\.[\w-]+(\[[^\]]*\])?)*$`)

func sortedLines(s string) string {
	l := strings.Split(s, "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}
