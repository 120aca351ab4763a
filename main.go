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
	interrupts := make(chan os.Signal, 2)
	signal.Notify(interrupts, os.Interrupt, syscall.SIGTERM)
	os.Exit(command.Run(os.Args[1:], command.DefaultDeps(version, interrupts)))
}
