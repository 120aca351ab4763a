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
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "output \"o\" {\n  value = 1\n}\n")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")

	t.Setenv("TF_LOG", "INFO")
	r := mustStrata(t, dir, 0, "output", "-raw", "o")
	if r.stdout != "1" {
		t.Errorf("stdout with TF_LOG=INFO: %q", r.stdout)
	}
	for _, want := range []string{"[INFO]  strata version: ", `CLI command args: []string{"output", "-raw", "o"}`, "state of terraform.tfstate: lineage"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the log lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "[DEBUG]") {
		t.Errorf("DEBUG lines at INFO:\n%s", r.stderr)
	}

	t.Setenv("TF_LOG_CORE", "off")
	if r := mustStrata(t, dir, 0, "output", "-raw", "o"); strings.Contains(r.stderr, "strata version") {
		t.Errorf("TF_LOG_CORE=off still logs:\n%s", r.stderr)
	}

	t.Setenv("TF_LOG_CORE", "DEBUG")
	path := filepath.Join(dir, "strata.log")
	t.Setenv("TF_LOG_PATH", path)
	if r := mustStrata(t, dir, 0, "output", "-raw", "o"); r.stderr != "" {
		t.Errorf("with TF_LOG_PATH, stderr: %q", r.stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), "[DEBUG] reading the state from terraform.tfstate") {
		t.Errorf("log file: %q, %v", data, err)
	}
}
