package command

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The end-to-end tests call Run directly, with the working directory, the
// environment and the standard streams in Deps: no strata process
// starts, and the tests run in parallel. strata and runIn come here too
// (see runWith); tests that send signals or kill strata start the binary.

// runInProcess runs strata in this process in dir with args, the tests'
// environment plus env, and stdin.
func runInProcess(t *testing.T, dir string, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	vars := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	vars["TF_IN_AUTOMATION"], vars["CHECKPOINT_DISABLE"], vars["TF_CLI_CONFIG_FILE"] = "1", "1", "/dev/null"
	for k, v := range env {
		vars[k] = v
	}
	environ := make([]string, 0, len(vars))
	for k, v := range vars {
		environ = append(environ, k+"="+v)
	}
	sort.Strings(environ)
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	d := DefaultDeps("0.1.0", nil)
	d.Stdin, d.Stdout, d.Stderr = strings.NewReader(stdin), &out, &errb
	d.Getenv = func(k string) string { return vars[k] }
	d.Environ = environ
	d.Dir = abs
	d.StdinIsTerminal = false
	d.Exit = func(code int) { t.Errorf("strata %s: exited the process with code %d", strings.Join(args, " "), code) }
	code := Run(args, d)
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// mustInProcess runs strata in this process (runInProcess, with no extra
// environment or input) and fails the test unless it exits with want.
func mustInProcess(t *testing.T, dir string, want int, args ...string) result {
	t.Helper()
	r := runInProcess(t, dir, nil, "", args...)
	if r.code != want {
		t.Fatalf("strata %s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
	}
	return r
}

// strayFiles lists the files a command writes in its working directory
// that are in the test process's directory: an in-process command that
// used a relative path rather than Deps.Dir leaves them here.
func strayFiles() []string {
	var found []string
	for _, name := range []string{".terraform", ".terraform.lock.hcl", "terraform.tfstate", "terraform.tfstate.backup", "terraform.tfstate.d", "errored.tfstate", ".terraform.tfstate.lock.info"} {
		if _, err := os.Lstat(name); err == nil {
			found = append(found, name)
		}
	}
	return found
}

func TestStrataInUsesDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("variable \"v\" {}\nresource \"terraform_data\" \"x\" {\n  input = var.v\n}\noutput \"o\" {\n  value = terraform_data.x.output\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfvars"), []byte("v = \"from-file\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustInProcess(t, dir, 0, "init", "-no-color")
	mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err != nil {
		t.Fatalf("the state is not in the working directory: %v", err)
	}
	if r := mustInProcess(t, dir, 0, "output", "-raw", "o"); r.stdout != "from-file" {
		t.Errorf("output o = %q, want from-file", r.stdout)
	}
	// The environment comes from Deps, not from the process.
	r := runInProcess(t, dir, map[string]string{"TF_VAR_v": "from-env"}, "", "plan", "-no-color", "-detailed-exitcode")
	if r.code != 0 {
		t.Errorf("plan: exit %d (terraform.tfvars wins over TF_VAR_v, so no change)\n%s%s", r.code, r.stdout, r.stderr)
	}
	if err := os.Remove(filepath.Join(dir, "terraform.tfvars")); err != nil {
		t.Fatal(err)
	}
	r = runInProcess(t, dir, map[string]string{"TF_VAR_v": "from-env"}, "", "plan", "-no-color", "-detailed-exitcode", "-out=p.plan")
	if r.code != 2 || !strings.Contains(r.stdout, `"from-file" -> "from-env"`) {
		t.Errorf("plan with TF_VAR_v: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "p.plan")); err != nil {
		t.Errorf("the plan file is not in the working directory: %v", err)
	}
	mustInProcess(t, dir, 0, "apply", "-no-color", "p.plan")
	if r := mustInProcess(t, dir, 0, "output", "-raw", "o"); r.stdout != "from-env" {
		t.Errorf("output o = %q, want from-env", r.stdout)
	}
	if stray := strayFiles(); len(stray) > 0 {
		t.Errorf("files written in the test process's directory: %v", stray)
	}
}
