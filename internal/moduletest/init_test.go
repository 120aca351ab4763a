package moduletest

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/configs"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRunModules: init installs the module of every run block that has
// one, local or not, keyed as the manifest keys them; a test file that
// does not parse is reported, with its source for the snippet.
func TestRunModules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": `resource "terraform_data" "a" {}`,
		"tests/a.tftest.hcl": `
run "setup" {
  module {
    source = "./tests/setup"
  }
}
run "plain" {}
run "remote" {
  module {
    source  = "hashicorp/consul/aws"
    version = "0.1.0"
  }
}
`,
		"b.tftest.hcl":           `run "broken" {`,
		"tests/setup/main.tf":    `resource "null_resource" "s" {}`,
		"tests/other/ignored.tf": `this is not a test file`,
	})
	runs, files, diags := RunModules(configs.NewParser(), dir, "tests")
	if !diags.HasErrors() {
		t.Errorf("the broken test file was not reported")
	}
	type got struct{ Key, Source, Version string }
	var gotRuns []got
	for _, r := range runs {
		gotRuns = append(gotRuns, got{r.Key, r.Call.Source, r.Call.Version})
	}
	want := []got{
		{configs.TestModuleKey("tests/a.tftest.hcl", "setup"), "./tests/setup", ""},
		{configs.TestModuleKey("tests/a.tftest.hcl", "remote"), "hashicorp/consul/aws", "0.1.0"},
	}
	if diff := cmp.Diff(want, gotRuns); diff != "" {
		t.Errorf("wrong run modules (-want +got)\n%s", diff)
	}
	var names []string
	for name := range files {
		names = append(names, filepath.ToSlash(name))
	}
	sort.Strings(names)
	wantNames := []string{filepath.ToSlash(filepath.Join(dir, "b.tftest.hcl")), filepath.ToSlash(filepath.Join(dir, "tests/a.tftest.hcl"))}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("wrong sources (-want +got)\n%s", diff)
	}
}

// TestWithRunModules: local helper modules of run blocks join the
// configuration (for their providers), remote ones and broken ones do
// not, and the configuration given is left alone.
func TestWithRunModules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": `resource "terraform_data" "a" {}`,
		"tests/a.tftest.hcl": `
run "setup" {
  module {
    source = "./tests/setup"
  }
}
run "again" {
  module {
    source = "./tests/setup"
  }
}
run "broken" {
  module {
    source = "./tests/broken"
  }
}
run "remote" {
  module {
    source = "hashicorp/consul/aws"
  }
}
`,
		"tests/setup/main.tf":  `resource "null_resource" "s" {}`,
		"tests/broken/main.tf": `resource "null_resource" {`,
	})
	cfg, diags := configs.NewParser().LoadConfig(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := WithRunModules(configs.NewParser(), cfg, dir, "tests")
	var keys []string
	for k := range got.Children {
		keys = append(keys, k)
	}
	if diff := cmp.Diff([]string{"test:./tests/setup"}, keys); diff != "" {
		t.Errorf("wrong children (-want +got)\n%s", diff)
	}
	if c := got.Children["test:./tests/setup"]; c == nil || c.Module.ManagedResources["null_resource.s"] == nil {
		t.Errorf("the helper module's configuration is not the one in tests/setup")
	}
	if len(cfg.Children) != 0 {
		t.Errorf("the given configuration gained children: %v", cfg.Children)
	}
	if none := WithRunModules(configs.NewParser(), cfg, t.TempDir(), "tests"); none != cfg {
		t.Errorf("without test files the configuration is not returned as it is")
	}
}
