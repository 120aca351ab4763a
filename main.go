// Command strata is a plan/apply infrastructure tool that reads Terraform
// configurations, state and plans. See README.md.
package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/strata-dev/strata/internal/command"
)

// version is strata's version, set at build time with
// -ldflags "-X main.version=...".
var version = "0.1.0"

func main() {
	// Output to a pipe its reader has closed (strata apply -json | head)
	// must not kill strata halfway through an operation, leaving the state
	// unwritten and the lock held: the writes fail and the operation
	// finishes.
	signal.Ignore(syscall.SIGPIPE)
	interrupts := make(chan os.Signal, 2)
	signal.Notify(interrupts, os.Interrupt, syscall.SIGTERM)
	stopProfiles := startProfiles()
	code := command.Run(os.Args[1:], command.DefaultDeps(version, interrupts))
	stopProfiles()
	os.Exit(code)
}
