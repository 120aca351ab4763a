package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EEmptyDirectoryMatchesTerraform: in a directory without
// configuration files, validate succeeds, plan and apply (refresh-only
// too) refuse in Terraform's words, and destroy, plan -destroy and
// refresh work on the empty configuration, as with terraform: the same
// output, exit code and state file.
func TestE2EEmptyDirectoryMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	product := strings.NewReplacer("Terraform", "strata", "terraform", "strata")
	for _, args := range [][]string{
		{"validate", "-no-color"},
		{"validate", "-json"},
		{"plan", "-no-color"},
		{"plan", "-refresh-only", "-no-color"},
		{"plan", "-destroy", "-no-color"},
		{"apply", "-auto-approve", "-no-color"},
		{"apply", "-refresh-only", "-auto-approve", "-no-color"},
		{"destroy", "-auto-approve", "-no-color"},
		{"refresh", "-no-color"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			run := func(bin string) (result, bool) {
				dir := t.TempDir()
				r := runWith(t, dir, "", bin, nil, args...)
				_, err := os.Stat(filepath.Join(dir, "terraform.tfstate"))
				return r, err == nil
			}
			got, gotState := run(strataBin)
			want, wantState := run(tf)
			if got.code != want.code || got.stdout != product.Replace(want.stdout) || got.stderr != product.Replace(want.stderr) || gotState != wantState {
				t.Errorf("differs from terraform:\nterraform: exit %d, state written %v\n%s\n--- stderr\n%s\nstrata: exit %d, state written %v\n%s\n--- stderr\n%s",
					want.code, wantState, want.stdout, want.stderr, got.code, gotState, got.stdout, got.stderr)
			}
		})
	}
}
