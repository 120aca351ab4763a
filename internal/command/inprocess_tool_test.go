package command

import (
	"strings"
	"testing"
)

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
