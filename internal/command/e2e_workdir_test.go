package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInProcessWorkDir: commands run in this process with Deps.Dir set,
// the test process's directory elsewhere, read and write the working
// directory only, and name relative paths as given. Each case is one
// place that used the process's directory before.
func TestInProcessWorkDir(t *testing.T) {
	t.Parallel()
	const remoteState = `{"version":4,"terraform_version":"1.11.0","serial":1,"lineage":"l","outputs":{"v":{"value":"remote value","type":"string"}},"resources":[]}`
	tests := map[string]struct {
		files map[string]string // below top; the working directory is top/work
		env   map[string]string
		check func(t *testing.T, top, work string, run func(dir string, want int, args ...string) result)
	}{
		"init -from-module with a relative source": {
			files: map[string]string{"src/main.tf": `output "o" { value = 1 }`},
			check: func(t *testing.T, top, work string, run func(string, int, ...string) result) {
				run(work, 0, "init", "-no-color", "-from-module=../src")
				if _, err := os.Stat(filepath.Join(work, "main.tf")); err != nil {
					t.Errorf("init -from-module=../src did not copy the module into the working directory: %v", err)
				}
			},
		},
		"modules, their manifest and a saved plan in TF_DATA_DIR": {
			files: map[string]string{
				"work/main.tf":     "module \"m\" {\n  source = \"./mod\"\n}\noutput \"child\" { value = module.m.where }\n",
				"work/mod/main.tf": `output "where" { value = path.module }`,
			},
			env: map[string]string{"TF_DATA_DIR": "data"},
			check: func(t *testing.T, top, work string, run func(string, int, ...string) result) {
				run(work, 0, "init", "-no-color")
				manifest := string(readFile(t, filepath.Join(work, "data", "modules", "modules.json")))
				if want := `{"Key":"m","Source":"./mod","Dir":"mod"}`; !strings.Contains(manifest, want) {
					t.Errorf("manifest %s lacks %s", manifest, want)
				}
				if _, err := os.Stat(filepath.Join(work, ".terraform")); err == nil {
					t.Errorf("TF_DATA_DIR from the command's environment was not used: .terraform exists")
				}
				if r := run(work, 0, "modules", "-json"); !strings.Contains(r.stdout, `"key":"m"`) {
					t.Errorf("modules -json: %s", r.stdout)
				}
				run(work, 0, "plan", "-no-color", "-out=p.plan")
				run(work, 0, "apply", "-no-color", "p.plan")
				if got := run(work, 0, "output", "-raw", "child").stdout; got != "mod" {
					t.Errorf("output child = %q, want mod", got)
				}
			},
		},
		"file() and a terraform_remote_state with a relative path": {
			files: map[string]string{
				"work/main.tf": `data "terraform_remote_state" "r" {
  backend = "local"
  config = {
    path = "../remote/terraform.tfstate"
  }
}
output "file" { value = file("data.txt") }
output "remote" { value = data.terraform_remote_state.r.outputs.v }
`,
				"work/data.txt":            "from the working directory",
				"remote/terraform.tfstate": remoteState,
			},
			check: func(t *testing.T, top, work string, run func(string, int, ...string) result) {
				run(work, 0, "init", "-no-color")
				run(work, 0, "apply", "-auto-approve", "-no-color")
				for name, w := range map[string]string{"file": "from the working directory", "remote": "remote value"} {
					if got := run(work, 0, "output", "-raw", name).stdout; got != w {
						t.Errorf("output %s = %q, want %q", name, got, w)
					}
				}
			},
		},
		"-chdir: path.cwd is where Run started": {
			files: map[string]string{"work/main.tf": "output \"cwd\" { value = path.cwd }\noutput \"file\" { value = file(\"data.txt\") }\n", "work/data.txt": "in work"},
			check: func(t *testing.T, top, work string, run func(string, int, ...string) result) {
				run(top, 0, "-chdir=work", "init", "-no-color")
				run(top, 0, "-chdir=work", "apply", "-auto-approve", "-no-color")
				if got := run(top, 0, "-chdir=work", "output", "-raw", "cwd").stdout; got != filepath.ToSlash(top) {
					t.Errorf("with -chdir, path.cwd = %q, want %q", got, filepath.ToSlash(top))
				}
				if got := run(top, 0, "-chdir=work", "output", "-raw", "file").stdout; got != "in work" {
					t.Errorf("with -chdir, file() read %q", got)
				}
				if _, err := os.Stat(filepath.Join(work, "terraform.tfstate")); err != nil {
					t.Errorf("the state is not in the -chdir directory: %v", err)
				}
			},
		},
		"strata test: test files, the test directory's variables, the JUnit report": {
			files: map[string]string{
				"work/main.tf":                "variable \"greeting\" {\n  default = \"hello\"\n}\noutput \"greeting\" { value = var.greeting }\n",
				"work/tests/terraform.tfvars": "greeting = \"from the test directory\"\n",
				"work/tests/a.tftest.hcl": `run "greets" {
  command = plan
  assert {
    condition     = output.greeting == "from the test directory"
    error_message = "the test directory's variables were not read"
  }
}
`,
			},
			check: func(t *testing.T, top, work string, run func(string, int, ...string) result) {
				run(work, 0, "init", "-no-color")
				if r := run(work, 0, "test", "-no-color", "-junit-xml=report.xml"); !strings.Contains(r.stdout, `run "greets"... pass`) {
					t.Errorf("strata test:\n%s", r.stdout)
				}
				if _, err := os.Stat(filepath.Join(work, "report.xml")); err != nil {
					t.Errorf("the JUnit report is not in the working directory: %v", err)
				}
				run(work, 0, "validate", "-no-color")
			},
		},
		"fmt": {
			files: map[string]string{"work/ugly.tf": "locals {\n  a=1\n}\n"},
			check: func(t *testing.T, top, work string, run func(string, int, ...string) result) {
				if r := run(work, 0, "fmt", "-no-color"); r.stdout != "ugly.tf\n" {
					t.Errorf("fmt listed %q, want ugly.tf", r.stdout)
				}
				if got := string(readFile(t, filepath.Join(work, "ugly.tf"))); got != "locals {\n  a = 1\n}\n" {
					t.Errorf("ugly.tf not formatted in the working directory: %q", got)
				}
				if r := run(work, 2, "fmt", "-no-color", "missing.tf"); !strings.Contains(r.stderr, "No file or directory at missing.tf") {
					t.Errorf("fmt of a missing file does not name it as given: %s", r.stderr)
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			top := t.TempDir()
			work := filepath.Join(top, "work")
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			writeTree(t, top, tc.files)
			run := func(dir string, want int, args ...string) result {
				t.Helper()
				r := runInProcess(t, dir, tc.env, "", args...)
				if r.code != want {
					t.Fatalf("strata %s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
				}
				return r
			}
			tc.check(t, top, work, run)
			if stray := strayFiles(); len(stray) > 0 {
				t.Errorf("files written in the test process's directory: %v", stray)
			}
		})
	}
}
