package views

import (
	"fmt"
	"strings"
)

// init's output has two forms: the text it has always printed, and, with
// -json, Terraform's UI stream, where section headers and closing notes are
// "init_output" messages with a message_code and progress lines are "log"
// messages worded for machines. A View with a Stream set writes the
// second; init's code says both and the View picks.

// InitOutput writes one of init's notes: human is colorstring-marked text
// for the terminal, plain the message of the init_output message with the
// code Terraform gives it (such as "initializing_backend_message").
func (v *View) InitOutput(code, human, plain string) {
	if v.Stream != nil {
		v.Stream.InitOutput(code, plain)
		return
	}
	v.Output(human)
}

// InitLog writes one progress line: human as text, or plain as a "log"
// message of the stream.
func (v *View) InitLog(human, plain string) {
	if v.Stream != nil {
		v.Stream.Log(plain)
		return
	}
	v.Output(human)
}

// InitOutput writes an "init_output" message. Terraform stamps these with
// whole seconds, unlike its other messages.
func (j *JSON) InitOutput(code, message string) {
	j.emitAt("info", message, "init_output", map[string]any{"message_code": code}, "2006-01-02T15:04:05Z07:00")
}

// The messages of init and of its backend and provider steps follow,
// worded as Terraform's.

// InitEmpty reports init in a directory without configuration files.
func (v *View) InitEmpty() {
	const empty = "strata initialized in an empty directory!\n\n" +
		"The directory has no strata configuration files. You may begin working\n" +
		"with strata immediately by creating configuration files (*.tf)."
	v.InitOutput("output_init_empty_message", "[reset][bold]"+strings.Replace(empty, "!", "![reset]", 1)+"\n", empty)
}

// InitHeading starts a step of init ("Initializing the backend...").
func (v *View) InitHeading(code, text string) {
	v.InitOutput(code, "[reset][bold]"+text+"[reset]\n", text)
}

// InitSuccess closes a successful init; in automation (TF_IN_AUTOMATION)
// without the advice about what to run next, as Terraform.
func (v *View) InitSuccess(automation bool) {
	const success = "strata has been successfully initialized!"
	const next = "You may now begin working with strata. Try running \"strata plan\" to see\n" +
		"any changes that are required for your infrastructure. All strata commands\n" +
		"should now work.\n\n" +
		"If you ever set or change modules or backend configuration for strata,\n" +
		"rerun this command to reinitialize your working directory. If you forget, other\n" +
		"commands will detect it and remind you to do so if necessary."
	if automation {
		v.InitOutput("output_init_success_message", "[reset][bold][green]"+success+"[reset]\n", success)
		return
	}
	v.InitOutput("output_init_success_message", "[reset][bold][green]"+success+"[reset][green]\n\n", success)
	v.InitOutput("output_init_success_cli_message", next+"[reset]\n", next)
}

// BackendUnsetting announces the migration away from a removed backend
// block of type typ.
func (v *View) BackendUnsetting(typ string) {
	v.Outputf("[reset]strata has detected you're unconfiguring your previously set %q backend.\n", typ)
}

// BackendUnset reports local state in use again.
func (v *View) BackendUnset(typ string) {
	v.Outputf("\n\n[reset][green]Successfully unset the backend %q. strata will now operate locally.[reset]\n", typ)
}

// BackendChanged announces the migration to a changed backend.
func (v *View) BackendChanged() {
	v.Output("[reset][bold]Backend configuration changed![reset]\n\n" +
		"strata has detected that the configuration specified for the backend\n" +
		"has changed. strata will now check for existing state in the backends.\n\n")
}

// BackendConfigured reports the backend of type typ configured.
func (v *View) BackendConfigured(typ string) {
	msg := fmt.Sprintf("Successfully configured the backend %q! strata will automatically\nuse this backend unless the backend configuration changes.", typ)
	v.InitOutput("backend_configured_success", "\n[reset][green]"+msg+"[reset]\n", msg)
}

// NoWorkspacesAtDestination heads the question of a migration to a
// backend of type typ, which has a single state.
func (v *View) NoWorkspacesAtDestination(typ string) {
	v.Outputf("[reset][bold]Destination state %q doesn't support workspaces.[reset]\n", typ)
}

// LockFileCreated reports the dependency lock file written for the first
// time.
func (v *View) LockFileCreated() {
	const lockInfo = "strata has created a lock file %s.terraform.lock.hcl%s to record the provider\nselections it made above. Include this file in your version control repository\nso that strata can guarantee to make the same selections by default when\nyou run \"strata init\" in the future."
	v.InitOutput("lock_info", fmt.Sprintf(lockInfo, "[bold]", "[reset]")+"\n", fmt.Sprintf(lockInfo, "", ""))
}

// CopyingConfiguration announces init -from-module.
func (v *View) CopyingConfiguration(source string) {
	v.InitOutput("copying_configuration_message", fmt.Sprintf("[reset][bold]Copying configuration[reset] from %q...\n", source), fmt.Sprintf("Copying configuration from %q...", source))
}
