package command

import (
	"fmt"
	"strings"

	"github.com/mattn/go-shellwords"
)

// nestedCommands are the commands whose subcommand is part of the
// command's name for TF_CLI_ARGS_<name> (workspace new is
// TF_CLI_ARGS_workspace_new).
var nestedCommands = map[string]bool{"workspace": true, "state": true, "providers": true, "metadata": true}

// withEnvArgs inserts the arguments of TF_CLI_ARGS and then of
// TF_CLI_ARGS_<command> right after the command's name in args (the
// arguments after the global options), as Terraform does: each is parsed
// as a shell would split it, and the user's own arguments come after them,
// so they win where a flag is given twice. With no command, args is
// returned as it is.
func withEnvArgs(getenv func(string) string, args []string) ([]string, error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return args, nil
	}
	n := 1 // words of the command's name
	if nestedCommands[args[0]] && len(args) > 1 && !strings.HasPrefix(args[1], "-") {
		n = 2
	}
	name := strings.ReplaceAll(strings.Join(args[:n], "_"), "-", "_")
	for _, env := range []string{"TF_CLI_ARGS", "TF_CLI_ARGS_" + name} {
		value := getenv(env)
		if value == "" {
			continue
		}
		extra, err := shellwords.Parse(value)
		if err != nil {
			return nil, fmt.Errorf("error parsing extra CLI args from %s: %s", env, err)
		}
		args = append(append(append([]string{}, args[:n]...), extra...), args[n:]...)
	}
	return args, nil
}
