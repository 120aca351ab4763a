package command

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
)

// Every question strata asks is here; views.View.Prompt renders them.

// readAnswer reads one line of input for a prompt. ok is false when the
// input ended before anything was typed.
func readAnswer(r io.Reader) (answer string, ok bool) {
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && line == "" {
		return "", false
	}
	return strings.TrimSpace(line), true
}

// confirmKind is what an apply's approval prompt asks about.
type confirmKind int

const (
	confirmApply confirmKind = iota
	confirmDestroy
	confirmRefreshOnly
)

// confirm asks the user to approve the plan; only "yes" approves. Input
// that ends before an answer is an error, as in Terraform.
func confirm(d *Deps, v *views.View, kind confirmKind) bool {
	v.Output("\n")
	switch kind {
	case confirmDestroy:
		v.Prompt("Do you really want to destroy all resources?", "strata will destroy all your managed infrastructure, as shown above.\nThere is no undo. Only 'yes' will be accepted to confirm.")
	case confirmRefreshOnly:
		v.Prompt("Would you like to update the strata state to reflect these detected changes?", "strata will write these changes to the state without modifying any real infrastructure.\nThere is no undo. Only 'yes' will be accepted to confirm.")
	default:
		v.Prompt("Do you want to perform these actions?", "strata will perform the actions described above.\nOnly 'yes' will be accepted to approve.")
	}
	answer, ok := readAnswer(d.Stdin)
	if !ok {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "error asking for approval: EOF"}})
		return false
	}
	v.Output("\n")
	if answer == "yes" {
		return true
	}
	if kind == confirmDestroy {
		v.Output("Destroy cancelled.\n")
	} else {
		v.Output("Apply cancelled.\n")
	}
	return false
}

// promptVariables asks for required variables that have no value.
func promptVariables(d *Deps, mod *configs.Module, vals map[string]engine.InputValue) hcl.Diagnostics {
	var names []string
	for name, decl := range mod.Variables {
		if _, ok := vals[name]; !ok && decl.Required() {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var diags hcl.Diagnostics
	r := bufio.NewReader(d.Stdin)
	v := d.newView(viewFlags{})
	for _, name := range names {
		decl := mod.Variables[name]
		v.VariablePrompt(name, decl.Description)
		line, err := r.ReadString('\n')
		v.Raw("\n")
		if err != nil && line == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "No value for required variable",
				Detail:   fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", name),
				Subject:  decl.DeclRange.Ptr(),
			})
			continue
		}
		v, vdiags := parseVarValue(decl, strings.TrimRight(line, "\r\n"), "prompt")
		diags = append(diags, vdiags...)
		vals[name] = engine.InputValue{Value: v}
	}
	return diags
}
