package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EEmptyStateFile: an empty or whitespace-only terraform.tfstate is
// refused by every command that reads the state, and left byte for byte
// as it was (a deliberate difference: Terraform reads it as no state and
// plans to create everything again).
func TestE2EEmptyStateFile(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{"empty": "", "whitespace": "  \n"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
			state := filepath.Join(dir, "terraform.tfstate")
			writeFile(t, state, content)
			for _, args := range [][]string{{"plan"}, {"apply", "-auto-approve"}, {"destroy", "-auto-approve"}, {"refresh"}, {"import", "terraform_data.a", "x"}} {
				r := strata(t, dir, append(args, "-no-color")...)
				if r.code != 1 || !strings.Contains(r.stderr, "Error: Empty state file") {
					t.Errorf("strata %s: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
				}
				if got, _ := os.ReadFile(state); string(got) != content {
					t.Fatalf("strata %s changed the state file to %q", args[0], got)
				}
				if _, err := os.Stat(state + ".backup"); err == nil {
					t.Fatalf("strata %s wrote a backup", args[0])
				}
			}
		})
	}
}
