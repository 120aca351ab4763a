package command

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ELockOperationNames: the lock information each command records
// names its operation as Terraform's does (refresh is OperationTypeRefresh,
// apply -refresh-only OperationTypeApply), seen by an http backend. The
// names are compared with terraform's where it is installed.
func TestE2ELockOperationNames(t *testing.T) {
	t.Parallel()
	commands := [][]string{
		{"apply", "-auto-approve"},
		{"plan"},
		{"plan", "-refresh-only"},
		{"refresh"},
		{"apply", "-refresh-only", "-auto-approve"},
		{"destroy", "-auto-approve"},
	}
	run := func(exe string) []string {
		srv := newHTTPStateServer(t, "", "")
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), httpBackendConfig(srv.url, "resource \"terraform_data\" \"a\" {}\n"))
		step := func(args ...string) {
			cmd := exec.Command(exe, append(args, "-no-color")...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s %s: %v\n%s", exe, strings.Join(args, " "), err, out)
			}
		}
		step("init")
		var got []string
		for _, args := range commands {
			srv.mu.Lock()
			srv.sent = nil
			srv.mu.Unlock()
			step(args...)
			srv.mu.Lock()
			var ops []string
			seen := map[string]bool{}
			for _, b := range srv.sent {
				// The unlock request carries the lock's information again.
				var li struct{ ID, Operation string }
				if json.Unmarshal(b, &li) == nil && li.Operation != "" && !seen[li.ID] {
					seen[li.ID] = true
					ops = append(ops, li.Operation)
				}
			}
			srv.mu.Unlock()
			got = append(got, fmt.Sprintf("%s: %s", strings.Join(args, " "), strings.Join(ops, ",")))
		}
		return got
	}
	got := run(strataBin)
	for i, want := range []string{"OperationTypeApply", "OperationTypePlan", "OperationTypePlan", "OperationTypeRefresh", "OperationTypeApply", "OperationTypeApply"} {
		if !strings.HasSuffix(got[i], ": "+want) {
			t.Errorf("strata %s, want %s", got[i], want)
		}
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		return
	}
	if want := run(tf); strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}
