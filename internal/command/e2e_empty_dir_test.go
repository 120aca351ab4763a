package command

import (
	"os"
	"path/filepath"
	"regexp"
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

// TestE2EEmptyDirectoryGraphProvidersMatchTerraform: in a directory
// without configuration files, graph draws the empty configuration's
// graph (the resources of the state too), providers refuses in
// Terraform's words, and providers lock, mirror and schema work as for a
// configuration without providers, as with terraform: the same output,
// streams, exit code and lock file.
func TestE2EEmptyDirectoryGraphProvidersMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	const orphans = `{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"6a0d6b4e-6d3c-3e58-8e3a-1b2b1b2b1b2b","outputs":{},"resources":[
{"mode":"managed","type":"terraform_data","name":"b","provider":"provider[\"terraform.io/builtin/terraform\"]","instances":[{"schema_version":0,"attributes":{"id":"x","input":null,"output":null,"triggers_replace":null},"sensitive_attributes":[]}]},
{"module":"module.x[\"k\"]","mode":"managed","type":"terraform_data","name":"z","provider":"provider[\"terraform.io/builtin/terraform\"]","instances":[{"schema_version":0,"attributes":{"id":"x","input":null,"output":null,"triggers_replace":null},"sensitive_attributes":[]}]},
{"mode":"data","type":"terraform_remote_state","name":"r","provider":"provider[\"terraform.io/builtin/terraform\"]","instances":[{"schema_version":0,"attributes":{"backend":"local","config":null,"defaults":null,"outputs":{},"workspace":null},"sensitive_attributes":[]}]}
],"check_results":null}
`
	// The comment of an empty graph is aligned for the product's name.
	comment := regexp.MustCompile(` +\*/`)
	product := strings.NewReplacer("Terraform", "strata", "terraform", "strata")
	tests := []struct {
		args  []string
		state string
	}{
		{args: []string{"graph"}},
		{args: []string{"graph", "-type=plan"}},
		{args: []string{"graph", "-type=plan-refresh-only"}},
		{args: []string{"graph", "-type=plan-destroy"}},
		{args: []string{"graph", "-type=apply"}},
		{args: []string{"graph", "-type=validate"}},
		{args: []string{"graph", "-type=eval", "-no-color"}},
		{args: []string{"graph"}, state: orphans},
		{args: []string{"providers"}},
		{args: []string{"providers", "-no-color"}},
		{args: []string{"providers", "lock"}},
		{args: []string{"providers", "lock", "-no-color"}},
		{args: []string{"providers", "mirror", "-no-color", "out"}},
		{args: []string{"providers", "schema", "-json"}},
	}
	for _, tc := range tests {
		name := strings.Join(tc.args, " ")
		if tc.state != "" {
			name += " with state"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			type outcome struct {
				r    result
				lock string
			}
			run := func(bin string) outcome {
				dir := t.TempDir()
				if tc.state != "" {
					if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), []byte(tc.state), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				r := runWith(t, dir, "", bin, nil, tc.args...)
				clean := func(s string) string {
					s = strings.ReplaceAll(s, dir, "DIR")
					s = comment.ReplaceAllString(product.Replace(s), " */")
					return unwrap(s)
				}
				r.stdout, r.stderr = clean(r.stdout), clean(r.stderr)
				lock, _ := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
				return outcome{r, string(lock)}
			}
			got, want := run(strataBin), run(tf)
			if got != want {
				t.Errorf("differs from terraform:\nterraform: exit %d\n%s\n--- stderr\n%s\n--- lock file\n%s\nstrata: exit %d\n%s\n--- stderr\n%s\n--- lock file\n%s",
					want.r.code, want.r.stdout, want.r.stderr, want.lock, got.r.code, got.r.stdout, got.r.stderr, got.lock)
			}
		})
	}
}
