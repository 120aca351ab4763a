package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestE2EClosedStdoutFinishesApply: when the reader of strata's output
// goes away (strata apply -json | head -1), the apply still finishes: the
// state records every object and the lock is released. Terraform is killed
// by SIGPIPE there, leaving the lock and an empty state file.
func TestE2EClosedStdoutFinishesApply(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  count = 50\n  input = count.index\n}\n")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before strata writes anything
	cmd := exec.Command(strataBin, "apply", "-auto-approve", "-json")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null")
	cmd.Stdout = w
	runErr := cmd.Run()
	w.Close()
	if runErr != nil {
		t.Fatalf("apply with a closed stdout: %v", runErr)
	}
	if n := stateResourceCount(t, filepath.Join(dir, "terraform.tfstate")); n != 1 {
		t.Fatalf("state has %d resources, want 1", n)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); !os.IsNotExist(err) {
		t.Errorf("the state lock was left behind (%v)", err)
	}
}
