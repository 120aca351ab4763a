package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// destroyCase is a configuration destroyed after an optional apply.
type destroyCase struct {
	files map[string]string
	// before, when set, is applied first, then replaced by files; with
	// applyArgs only, files are applied with those arguments first.
	before    map[string]string
	applyArgs []string
	// code and stderr are what the destroy must give.
	code   int
	stderr string
}

// TestE2EDestroyChecksMatchTerraform: destroy first makes a normal plan
// when the state has objects, as Terraform does, so the configuration's
// errors stop it (a reference to an output a module does not have, a
// failed variable validation) and the state is left as it was; with an
// empty state there is nothing to refresh and the validations are not
// checked.
func TestE2EDestroyChecksMatchTerraform(t *testing.T) {
	t.Parallel()
	const validation = `variable "a" {
  default = 5
}
variable "b" {
  default = 2
  validation {
    condition     = var.b > var.a
    error_message = "b must exceed a"
  }
}
resource "terraform_data" "x" {
  input = var.b
}
`
	tests := map[string]destroyCase{
		"missing module output": {
			before: map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n}\nresource \"terraform_data\" \"a\" {}\noutput \"o\" {\n  value = 1\n}\n"},
			files:  map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n}\nresource \"terraform_data\" \"a\" {}\noutput \"o\" {\n  value = module.m.nope\n}\n"},
			code:   1, stderr: "Unsupported attribute",
		},
		"failed validation with objects": {
			files: map[string]string{"main.tf": validation}, applyArgs: []string{"-var", "a=1"},
			code: 1, stderr: "b must exceed a",
		},
		"failed validation, empty state": {
			files: map[string]string{"main.tf": validation},
			code:  0,
		},
	}
	run := func(t *testing.T, bin string, tc destroyCase) (result, int) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "m"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "m", "main.tf"), "output \"real\" {\n  value = 1\n}\n")
		write := func(files map[string]string) {
			for name, src := range files {
				writeFile(t, filepath.Join(dir, name), src)
			}
		}
		if tc.before != nil {
			write(tc.before)
		} else {
			write(tc.files)
		}
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %s", bin, r.stderr)
		}
		if tc.before != nil || tc.applyArgs != nil {
			if r := runIn(t, dir, "", bin, append([]string{"apply", "-auto-approve", "-no-color"}, tc.applyArgs...)...); r.code != 0 {
				t.Fatalf("%s apply: %s", bin, r.stderr)
			}
		}
		write(tc.files)
		r := runIn(t, dir, "", bin, "destroy", "-auto-approve", "-no-color")
		n := 0
		if data, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); err == nil {
			n = strings.Count(string(data), `"mode": "managed"`)
		}
		return r, n
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, left := run(t, strataBin, tc)
			if got.code != tc.code || !strings.Contains(got.stderr, tc.stderr) {
				t.Errorf("destroy: exit code %d, want %d; stderr:\n%s", got.code, tc.code, got.stderr)
			}
			if tc.code != 0 {
				if left != 1 {
					t.Errorf("a refused destroy left %d resources in the state, want 1", left)
				}
			}
			if tf, err := referenceTerraform(); err == nil {
				want, tfLeft := run(t, tf, tc)
				if want.code != got.code || tfLeft != left {
					t.Errorf("terraform: exit code %d, %d resources left; strata: %d, %d\n%s", want.code, tfLeft, got.code, left, want.stderr)
				}
			}
		})
	}
}
