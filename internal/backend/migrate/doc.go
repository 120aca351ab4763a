// Package migrate is init's backend step: it compares the backend the
// configuration declares (with -backend-config options merged in) with the
// one init recorded in .terraform/terraform.tfstate, copies the state of
// every workspace when the backend changes, and records the new
// configuration.
//
// It knows nothing of the command line: the caller passes its options
// (Options), how to reach backends and state managers (Env, which the
// command builds from its Deps so that each backend is configured once per
// command) and what the user sees and answers (View). It returns
// hcl.Diagnostics and never writes to the terminal itself, except through
// View.
//
// It imports backend and its local implementation (whose files a
// migration compares), states and statemgr; only internal/command imports
// it.
package migrate
