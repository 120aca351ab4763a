package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-dev/strata/internal/configs"
)

// TestWorkDir checks that a configuration loaded by relative path from a
// working directory other than the process's is read from that directory
// (child modules too), evaluates path.cwd to it and resolves the relative
// paths of file functions against it, while path.module and path.root
// stay relative as Terraform prints them; errors name the paths as given.
func TestWorkDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"main.tf": `
module "m" {
  source = "./mod"
}
output "cwd" { value = path.cwd }
output "module" { value = path.module }
output "root" { value = path.root }
output "child" { value = module.m.text }
output "file" { value = file("data.txt") }
output "set" { value = join(",", fileset(path.module, "*.txt")) }
output "abs" { value = abspath("data.txt") }
output "tpl" { value = templatefile("t.tpl", { n = 2 }) }
output "exists" { value = tostring(fileexists("${path.module}/data.txt")) }
output "md5" { value = filemd5("data.txt") }
`,
		"t.tpl":        "n=${n}",
		"data.txt":     "hello",
		"mod/main.tf":  `output "text" { value = "${path.module}:${file("${path.module}/in.txt")}" }`,
		"mod/in.txt":   "child",
		"mod/other.tf": ``,
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := configs.NewParser()
	p.SetWorkDir(dir)
	cfg, diags := p.LoadConfig(".")
	if diags.HasErrors() {
		t.Fatalf("loading config: %s", diags.Error())
	}
	e := builtinEngine(cfg)
	e.WorkDir = dir
	_, state := planApply(t, e, nil, PlanOpts{})
	want := map[string]string{
		"cwd":    filepath.ToSlash(dir),
		"module": ".",
		"root":   ".",
		"child":  "mod:child",
		"file":   "hello",
		"set":    "data.txt",
		"abs":    filepath.ToSlash(filepath.Join(dir, "data.txt")),
		"tpl":    "n=2",
		"exists": "true",
		"md5":    "5d41402abc4b2a76b9719d911017c592",
	}
	for name, w := range want {
		if got := outputString(t, state, name); got != w {
			t.Errorf("output %s = %q, want %q", name, got, w)
		}
	}
}
