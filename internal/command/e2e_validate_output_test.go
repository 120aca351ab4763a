package command

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EValidateOutputMatchesTerraform: what validate prints, byte for
// byte, compared with terraform: "Success!" and a blank line, in colour
// and without, with warnings, and with a provisioner plugin (where the
// blank line was first seen missing).
func TestE2EValidateOutputMatchesTerraform(t *testing.T) {
	t.Parallel() // its own directories
	plugin := echoProvisioner(t)
	tests := map[string]struct {
		config string
		plugin bool
		args   []string
	}{
		"valid":           {config: "resource \"terraform_data\" \"a\" {}\n", args: []string{"validate"}},
		"valid, no color": {config: "resource \"terraform_data\" \"a\" {}\n", args: []string{"validate", "-no-color"}},
		"warnings": {
			config: "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    ignore_changes = [id]\n  }\n}\n",
			args:   []string{"validate", "-no-color"},
		},
		"provisioner plugin": {
			config: "resource \"terraform_data\" \"a\" {\n  provisioner \"echo\" {\n    message = \"hello ${self.id}\"\n  }\n}\n",
			plugin: true,
			args:   []string{"validate", "-no-color"},
		},
	}
	tf, tfErr := referenceTerraform()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			run := func(bin string) result {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), tc.config)
				if tc.plugin {
					copyExecutable(t, plugin, filepath.Join(dir, "terraform-provisioner-echo"))
				}
				r := runWith(t, dir, "", bin, nil, tc.args...)
				r.stdout, r.stderr = normalizeProductName(r.stdout), normalizeProductName(r.stderr)
				return r
			}
			got := run(strataBin)
			if got.code != 0 {
				t.Fatalf("exit %d\n%s%s", got.code, got.stdout, got.stderr)
			}
			if tfErr != nil {
				return
			}
			want := run(tf)
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(result{})); diff != "" {
				t.Errorf("differs from terraform (-terraform +strata):\n%s", diff)
			}
		})
	}
}
