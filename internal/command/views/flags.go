package views

import "github.com/spf13/pflag"

// NoColorUsage is the help of -no-color, as Terraform words it.
const NoColorUsage = "If specified, output won't contain any color."

// RegisterNoColor adds -no-color to fs, setting *p: every command that
// lists the option in its help registers it through here, so that its
// name and help are written once.
func RegisterNoColor(fs *pflag.FlagSet, p *bool) {
	fs.BoolVar(p, "no-color", false, NoColorUsage)
}
