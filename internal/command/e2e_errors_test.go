package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, src string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestE2EBadInput: every kind of bad input gives a diagnostic naming the
// file and line, exit code 1, and leaves the state file byte-identical.
func TestE2EBadInput(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		config string
		state  string // replaces the good state when set
		args   []string
		want   []string
	}{
		"malformed HCL": {
			config: "resource \"terraform_data\" \"a\" {\n  input = \n}\n",
			want:   []string{"Error: Invalid expression", "on main.tf line 2"},
		},
		"unknown reference": {
			config: "resource \"terraform_data\" \"a\" {\n  input = var.nope\n}\n",
			want:   []string{"Reference to undeclared input variable", "on main.tf line 2, in resource \"terraform_data\" \"a\"", "2: input = var.nope"},
		},
		"undeclared resource": {
			config: "resource \"terraform_data\" \"a\" {\n  input = terraform_data.b.output\n}\n",
			want:   []string{"Reference to undeclared resource", "on main.tf line 2"},
		},
		"wrong type": {
			config: "variable \"n\" {\n  type = number\n  default = \"x\"\n}\n",
			want:   []string{"Invalid default value for variable", "on main.tf line 3"},
		},
		"wrong type from flag": {
			config: "variable \"n\" {\n  type = number\n}\n",
			args:   []string{"-var", "n=abc"},
			want:   []string{"Invalid value for input variable", "a number is required"},
		},
		"validation rule": {
			config: "variable \"n\" {\n  type = number\n  default = 5\n  validation {\n    condition = var.n < 3\n    error_message = \"Too big.\"\n  }\n}\n",
			want:   []string{"Invalid value for variable", "Too big.", "on main.tf line 1"},
		},
		"cycle": {
			config: "resource \"terraform_data\" \"a\" {\n  input = terraform_data.b.output\n}\nresource \"terraform_data\" \"b\" {\n  input = terraform_data.a.output\n}\n",
			want:   []string{"Cycle: terraform_data.a, terraform_data.b"},
		},
		"unknown function": {
			config: "output \"o\" {\n  value = nosuch(1)\n}\n",
			want:   []string{"Call to unknown function", "on main.tf line 2"},
		},
		"unsupported argument": {
			config: "resource \"terraform_data\" \"a\" {\n  bogus = 1\n}\n",
			want:   []string{"Unsupported argument", "on main.tf line 2"},
		},
		"sensitive output not marked": {
			config: "variable \"s\" {\n  default = \"x\"\n  sensitive = true\n}\noutput \"o\" {\n  value = var.s\n}\n",
			want:   []string{"Output refers to sensitive values", "on main.tf line 5"},
		},
		"count unknown": {
			config: "resource \"terraform_data\" \"a\" {\n  input = 1\n}\nresource \"terraform_data\" \"b\" {\n  count = terraform_data.a.output\n}\n",
			want:   []string{"Invalid count argument", "on main.tf line 5"},
		},
		"garbled state": {
			config: "resource \"terraform_data\" \"a\" {}\n",
			state:  "{\"version\": 4, \"resources\": [",
			want:   []string{"Failed to load state", "could not be parsed"},
		},
		"future state version": {
			config: "resource \"terraform_data\" \"a\" {}\n",
			state:  "{\"version\": 5, \"serial\": 1, \"lineage\": \"x\"}",
			want:   []string{"Failed to load state", "format version 5"},
		},
		"unknown flag": {
			config: "resource \"terraform_data\" \"a\" {}\n",
			args:   []string{"-bogus"},
			want:   []string{"Failed to parse command-line flags", "flag provided but not defined: -bogus"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"keep\" {\n  input = \"k\"\n}\n")
			mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")
			statePath := filepath.Join(dir, "terraform.tfstate")
			if tc.state != "" {
				writeFile(t, statePath, tc.state)
			}
			before := readFile(t, statePath)
			writeFile(t, filepath.Join(dir, "main.tf"), tc.config)
			for _, cmd := range []string{"plan", "apply"} {
				args := append([]string{cmd, "-no-color", "-input=false", "-auto-approve"}, tc.args...)
				if cmd == "plan" {
					args = append([]string{cmd, "-no-color", "-input=false"}, tc.args...)
				}
				r := runInProcess(t, dir, nil, "", args...)
				if r.code != 1 {
					t.Fatalf("%s: exit code %d, want 1\nstdout:\n%s\nstderr:\n%s", cmd, r.code, r.stdout, r.stderr)
				}
				for _, w := range tc.want {
					if !strings.Contains(flat(r.stderr), w) {
						t.Errorf("%s: stderr lacks %q:\n%s", cmd, w, r.stderr)
					}
				}
				if strings.Contains(flat(r.stderr), "panic") || strings.Contains(flat(r.stderr), "goroutine ") {
					t.Fatalf("%s panicked:\n%s", cmd, r.stderr)
				}
				if after := readFile(t, statePath); string(after) != string(before) {
					t.Fatalf("%s changed the state file", cmd)
				}
			}
		})
	}
}

func TestE2EValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "variable \"n\" {\n  type = number\n}\nresource \"terraform_data\" \"a\" {\n  count = var.n\n  input = count.index\n}\n")
	r := mustInProcess(t, dir, 0, "validate", "-no-color")
	if !strings.Contains(flat(r.stdout), "Success! The configuration is valid.") {
		t.Fatalf("validate: %s", r.stdout)
	}
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = each.key\n}\n")
	r = mustInProcess(t, dir, 1, "validate", "-no-color")
	if !strings.Contains(flat(r.stderr), `Reference to "each" in context without for_each`) {
		t.Fatalf("validate: %s", r.stderr)
	}
	r = mustInProcess(t, dir, 1, "validate", "-json")
	if !strings.Contains(flat(r.stdout), `"valid": false`) || !strings.Contains(flat(r.stdout), `"filename": "main.tf"`) {
		t.Fatalf("validate -json: %s", r.stdout)
	}
}
