package command

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestE2EReplaceTriggeredByUndeclared: as Terraform, a replace_triggered_by
// reference to a resource the module does not declare passes validate and
// fails the plan, once per instance, naming the instance (with its index
// evaluated) and the module; no planned change is printed.
func TestE2EReplaceTriggeredByUndeclared(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"main.tf":   "module \"m\" {\n  source = \"./m\"\n}\nresource \"terraform_data\" \"r\" {\n  lifecycle {\n    replace_triggered_by = [terraform_data.gone]\n  }\n}\n",
		"m/main.tf": "resource \"terraform_data\" \"a\" {\n  count = 2\n  input = \"x\"\n  lifecycle {\n    replace_triggered_by = [terraform_data.nope[count.index].output]\n  }\n}\n",
	}
	run := func(bin string) (validate, plan result) {
		dir := writeFiles(t, files)
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		return runIn(t, dir, "", bin, "validate", "-no-color"), runIn(t, dir, "", bin, "plan", "-no-color")
	}
	validate, plan := run(strataBin)
	if validate.code != 0 {
		t.Errorf("validate: exit %d, want 0\n%s", validate.code, validate.stderr)
	}
	if plan.code != 1 {
		t.Fatalf("plan: exit %d, want 1\n%s%s", plan.code, plan.stdout, plan.stderr)
	}
	for _, want := range []string{
		"A resource terraform_data.nope[0] has not been declared in module.m\n",
		"A resource terraform_data.nope[1] has not been declared in module.m\n",
		"A resource terraform_data.gone has not been declared in the root module\n",
	} {
		if strings.Count(plan.stderr, want) != 1 {
			t.Errorf("plan errors lack %q once:\n%s", want, plan.stderr)
		}
	}
	if strings.Contains(plan.stdout, "will be created") {
		t.Errorf("plan printed changes for resources whose planning failed:\n%s", plan.stdout)
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	tfValidate, tfPlan := run(tf)
	if tfValidate.code != validate.code {
		t.Errorf("validate: exit %d, terraform %d", validate.code, tfValidate.code)
	}
	if tfPlan.code != plan.code || sortedBlocks(tfPlan.stderr) != sortedBlocks(plan.stderr) {
		t.Errorf("plan differs from terraform (exit %d vs %d)\nterraform:\n%s\nstrata:\n%s", tfPlan.code, plan.code, tfPlan.stderr, plan.stderr)
	}
	if w := strings.ReplaceAll(tfPlan.stdout, "Terraform", "strata"); w != plan.stdout {
		t.Errorf("plan output differs from terraform\nterraform:\n%s\nstrata:\n%s", w, plan.stdout)
	}
}

// TestE2EIgnoreChangesChecked: ignore_changes elements are checked against
// the resource type's schema as Terraform does: an unknown name is an
// error with a suggestion, an attribute only the provider sets a warning,
// in validate and in plan.
func TestE2EIgnoreChangesChecked(t *testing.T) {
	t.Parallel()
	src := "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n  lifecycle {\n    ignore_changes = [inptu, triggers_replace.x]\n  }\n}\n" +
		"resource \"terraform_data\" \"b\" {\n  lifecycle {\n    ignore_changes = [input, id, output, triggers_replace[\"x\"]]\n  }\n}\n"
	code, got := validateDiags(t, strataBin, map[string]string{"main.tf": src})
	want := []validateDiag{
		{Severity: "error", Summary: "Unsupported attribute", Detail: `This object has no argument, nested block, or exported attribute named "inptu". Did you mean "input"?`,
			Range: "0004:0023-0004:0028", Snippet: `4 "    ignore_changes = [inptu, triggers_replace.x]" [22,27)`},
	}
	redundant := func(attr string) validateDiag {
		return validateDiag{Severity: "warning", Summary: "Redundant ignore_changes element",
			Detail: "Adding an attribute name to ignore_changes tells strata to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute " + attr + " is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning.",
			Range:  "0007:0010-0007:0026", Snippet: `7 "resource \"terraform_data\" \"b\" {" [9,25)`}
	}
	want = append(want, redundant("id"), redundant("output"))
	if code != 1 || !equalDiags(want, got) {
		t.Errorf("validate: exit %d\ngot  %+v\nwant %+v", code, got, want)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), src)
	plan := runIn(t, dir, "", strataBin, "plan", "-no-color")
	if plan.code != 1 || !strings.Contains(plan.stderr, `Did you mean "input"?`) {
		t.Errorf("plan: exit %d, want 1 with the ignore_changes error\n%s", plan.code, plan.stderr)
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	tfCode, tfGot := validateDiags(t, tf, map[string]string{"main.tf": src})
	if tfCode != code || !equalDiags(tfGot, got) {
		t.Errorf("validate differs from terraform (exit %d vs %d)\nterraform %+v\nstrata    %+v", tfCode, code, tfGot, got)
	}
}

// equalDiags compares diagnostics with the product name in details
// normalized.
func equalDiags(a, b []validateDiag) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.Detail, y.Detail = normalizeProductName(x.Detail), normalizeProductName(y.Detail)
		if x != y {
			return false
		}
	}
	return true
}

// sortedBlocks splits diagnostic output into its blank-line separated
// blocks and sorts them, for output whose order varies between runs.
func sortedBlocks(s string) string {
	blocks := strings.Split(strings.TrimSpace(s), "\n\nError: ")
	sort.Strings(blocks)
	return strings.Join(blocks, "\n--\n")
}
