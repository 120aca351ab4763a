package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EEmptyStateWrittenMatchesTerraform: apply, destroy, refresh,
// apply -refresh-only and the apply of a saved plan write the state even
// when it is empty and none was stored (serial 1, then unchanged), as
// Terraform does; plan writes none. Compared with terraform.
func TestE2EEmptyStateWrittenMatchesTerraform(t *testing.T) {
	t.Parallel() // its own directories
	commands := [][][]string{
		{{"apply", "-auto-approve"}, {"apply", "-auto-approve"}},
		{{"destroy", "-auto-approve"}},
		{{"refresh"}},
		{{"apply", "-refresh-only", "-auto-approve"}},
		{{"plan", "-out=p"}, {"apply", "p"}},
		{{"plan"}},
	}
	run := func(bin string) string {
		var got strings.Builder
		for _, steps := range commands {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), "variable \"v\" {\n  default = 1\n}\n")
			for _, args := range steps {
				r := runWith(t, dir, "", bin, nil, append(args, "-no-color")...)
				fmt.Fprintf(&got, "%s: exit %d, ", strings.Join(args, " "), r.code)
				data, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
				if err != nil {
					got.WriteString("no state\n")
					continue
				}
				var st struct {
					Serial    int
					Resources []any
				}
				if err := json.Unmarshal(data, &st); err != nil {
					t.Fatalf("%s %s: %v\n%s", bin, args, err, data)
				}
				fmt.Fprintf(&got, "serial %d, %d resources\n", st.Serial, len(st.Resources))
			}
		}
		return got.String()
	}
	got := run(strataBin)
	for _, want := range []string{"refresh: exit 0, serial 1, 0 resources\n", "apply -auto-approve: exit 0, serial 1, 0 resources\napply -auto-approve: exit 0, serial 1, 0 resources\n", "plan: exit 0, no state\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("strata's results lack %q:\n%s", want, got)
		}
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if want := run(tf); want != got {
		t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", want, got)
	}
}
