package command

import (
	"strings"
	"sync"
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

// testEnv holds, by test name, environment variables for every process
// the test and its subtests start (see setTestEnv).
var testEnv sync.Map

// setTestEnv gives name=value to the processes t and its subtests start
// through runWith (and so strata, mustStrata, runIn, runEnv...), startApply
// and the watch helpers, for the rest of t: t.Setenv's effect on them,
// for a test that runs in parallel.
func setTestEnv(t *testing.T, env ...string) {
	t.Helper()
	prev, _ := testEnv.Load(t.Name())
	old, _ := prev.([]string)
	testEnv.Store(t.Name(), append(append([]string(nil), old...), env...))
	t.Cleanup(func() { testEnv.Delete(t.Name()) })
}

// testEnvFor returns the environment setTestEnv gave t or the tests it
// is a subtest of, the innermost last (so that it wins).
func testEnvFor(t *testing.T) []string {
	var out []string
	name := t.Name()
	for {
		if v, ok := testEnv.Load(name); ok {
			out = append(v.([]string), out...)
		}
		i := strings.LastIndex(name, "/")
		if i < 0 {
			return out
		}
		name = name[:i]
	}
}
