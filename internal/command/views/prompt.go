package views

import "strings"

// Prompt asks a yes/no question in Terraform's layout: the query in bold,
// the description indented by two spaces, then "Enter a value:" and no
// newline, for the answer.
func (v *View) Prompt(query, description string) {
	v.Output("[reset][bold]" + query + "[reset]\n  " + strings.ReplaceAll(description, "\n", "\n  ") + "\n\n  [bold]Enter a value:[reset] ")
}

// PromptPlain asks a question in the plainer layout of `state
// replace-provider`: nothing indented, "Enter a value:" not bold.
func (v *View) PromptPlain(query, description string) {
	v.Output("\n[bold]" + query + "[reset]\n" + description + "\n\nEnter a value: ")
}

// VariablePrompt asks for the value of a root module variable, as
// Terraform does when one has none.
func (v *View) VariablePrompt(name, description string) {
	v.Raw("var." + name + "\n")
	if description != "" {
		v.Raw("  " + description + "\n")
	}
	v.Raw("\n  Enter a value: ")
}
