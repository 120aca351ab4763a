package plugin

import (
	"os"
	"os/exec"
	"strings"
)

// sdkLogVariables are the variables through which the provider SDKs
// (terraform-plugin-log) choose how much a plugin logs. Left unset, a
// plugin built with them logs every call at TRACE level on its stderr.
var sdkLogVariables = []string{
	"TF_LOG_PROVIDER", // the provider's own tflog calls
	"TF_LOG_SDK",
	"TF_LOG_SDK_PROTO",
	"TF_LOG_SDK_FRAMEWORK",
	"TF_LOG_SDK_HELPER_SCHEMA",
	"TF_LOG_SDK_HELPER_RESOURCE",
	"TF_LOG_SDK_MUX",
}

// pluginCommand is the command that starts the plugin at path. When the
// user asked for no provider logs (neither TF_LOG nor TF_LOG_PROVIDER is
// set), strata would only discard them, so the plugin is told not to
// write them: with a plugin framework provider, formatting and reading
// those logs is half of all the CPU time an apply takes. Variables the
// user set are passed on as they are.
//
// environ is the plugin's environment, nil for strata's own.
func pluginCommand(path string, getenv func(string) string, environ []string, dir string) *exec.Cmd {
	cmd := exec.Command(path)
	cmd.Dir = dir
	env := environ
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = env
	if getenv("TF_LOG") != "" || getenv("TF_LOG_PROVIDER") != "" {
		return cmd
	}
	set := map[string]bool{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		set[name] = true
	}
	env = append([]string(nil), env...)
	for _, name := range sdkLogVariables {
		if !set[name] {
			env = append(env, name+"=off")
		}
	}
	cmd.Env = env
	return cmd
}
