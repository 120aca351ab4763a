package command

import (
	"strings"
	"testing"
)

// stickyEnv runs strata with environment variables that, once set, stay
// for the rest of the test, as t.Setenv's do, but go to the commands
// rather than to the test process: a test using it may run in parallel.
type stickyEnv struct {
	t   *testing.T
	env []string
}

// setenv adds name=value to the environment of the commands run after.
func (e *stickyEnv) setenv(name, value string) {
	e.env = append(e.env, name+"="+value)
}

// strata runs strata in dir with args (as the package's strata does).
func (e *stickyEnv) strata(dir string, args ...string) result {
	e.t.Helper()
	return runWith(e.t, dir, "", strataBin, e.env, args...)
}

// mustStrata runs strata in dir with args and fails the test unless it
// exits with want (as the package's mustStrata does).
func (e *stickyEnv) mustStrata(dir string, want int, args ...string) result {
	e.t.Helper()
	r := e.strata(dir, args...)
	if r.code != want {
		e.t.Fatalf("strata %s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
	}
	return r
}

// runInEnv sets env (name=value pairs) and runs strata in dir with args.
func (e *stickyEnv) runInEnv(dir string, env []string, args ...string) result {
	e.t.Helper()
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		e.setenv(name, value)
	}
	return e.strata(dir, args...)
}
