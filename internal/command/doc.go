// Package command implements strata's command line: a cobra root command
// with one file per subcommand. Each command parses its flags into an
// options struct and calls a run function with a small Deps struct; output
// goes through package views. Flags are spelled as Terraform spells them,
// with a single dash (-var, -auto-approve); both one and two dashes work.
package command
