package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ECoreLog: TF_LOG and TF_LOG_CORE turn on strata's own log on
// stderr (TF_LOG_PATH: appended to a file), at Terraform's levels; stdout
// stays the command's.
func TestE2ECoreLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "output \"o\" {\n  value = 1\n}\n")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")

	env := []string{"TF_LOG=INFO"}
	r := runWith(t, dir, "", strataBin, env, "output", "-raw", "o")
	if r.code != 0 || r.stdout != "1" {
		t.Errorf("with TF_LOG=INFO: exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"[INFO]  strata version: ", `CLI command args: []string{"output", "-raw", "o"}`, "state of terraform.tfstate: lineage"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the log lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "[DEBUG]") {
		t.Errorf("DEBUG lines at INFO:\n%s", r.stderr)
	}

	env = append(env, "TF_LOG_CORE=off")
	if r := runWith(t, dir, "", strataBin, env, "output", "-raw", "o"); r.code != 0 || strings.Contains(r.stderr, "strata version") {
		t.Errorf("TF_LOG_CORE=off still logs:\n%s", r.stderr)
	}

	path := filepath.Join(dir, "strata.log")
	env = append(env, "TF_LOG_CORE=DEBUG", "TF_LOG_PATH="+path)
	if r := runWith(t, dir, "", strataBin, env, "output", "-raw", "o"); r.code != 0 || r.stderr != "" {
		t.Errorf("with TF_LOG_PATH, stderr: %q", r.stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), "[DEBUG] reading the state from terraform.tfstate") {
		t.Errorf("log file: %q, %v", data, err)
	}
}
