package command

import (
	"strings"
	"testing"
)

// Helpers for tests that compare strata with terraform: strata runs in
// this process (runInProcess, in the directory given, whatever the test
// process's own directory), terraform as a process.

// runTool runs bin in dir with stdin: strata (strataBin) in this process,
// any other program (terraform) as a process.
func runTool(t *testing.T, dir, stdin, bin string, args ...string) result {
	t.Helper()
	if bin == strataBin {
		return runInProcess(t, dir, nil, stdin, args...)
	}
	return runIn(t, dir, stdin, bin, args...)
}

// inProcessEnv runs strata in this process in dir with extra environment
// variables, KEY=VALUE, as strataEnv runs the binary (no plugin cache).
func inProcessEnv(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	vars := map[string]string{"TF_PLUGIN_CACHE_DIR": ""}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	return runInProcess(t, dir, vars, "", args...)
}
