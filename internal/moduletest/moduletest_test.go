package moduletest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/strata-dev/strata/internal/configs"

	"github.com/strata-dev/strata/internal/addrs"
)

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.tftest.hcl", "a.tftest.json", "main.tf", "tests/z.tftest.hcl", "tests/c.tftest.hcl", "tests/notes.txt", "other/x.tftest.hcl", "custom/y.tftest.hcl"} {
		path := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := map[string]struct {
		testDir string
		filter  []string
		want    []string
	}{
		"default":        {testDir: "tests", want: []string{"a.tftest.json", "b.tftest.hcl", "tests/c.tftest.hcl", "tests/z.tftest.hcl"}},
		"test directory": {testDir: "custom", want: []string{"a.tftest.json", "b.tftest.hcl", "custom/y.tftest.hcl"}},
		"missing dir":    {testDir: "nowhere", want: []string{"a.tftest.json", "b.tftest.hcl"}},
		"filter":         {testDir: "tests", filter: []string{"tests/z.tftest.hcl", "./b.tftest.hcl", "nope.tftest.hcl"}, want: []string{"b.tftest.hcl", "tests/z.tftest.hcl"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Discover(dir, tc.testDir, tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	file := func(statuses ...Status) *File {
		f := &File{Status: Pass}
		for _, s := range statuses {
			f.Runs = append(f.Runs, &Run{Status: s})
			f.Status = f.Status.merge(s)
		}
		return f
	}
	tests := map[string]struct {
		files          []*File
		verdict, count string
		status         Status
	}{
		"none":       {nil, "Success!", "0 passed, 0 failed.", Pass},
		"all pass":   {[]*File{file(Pass, Pass), file(Pass)}, "Success!", "3 passed, 0 failed.", Pass},
		"one fails":  {[]*File{file(Pass, Fail)}, "Failure!", "1 passed, 1 failed.", Fail},
		"errored":    {[]*File{file(Pass, Error, Skip, Skip), file(Fail)}, "Failure!", "1 passed, 2 failed, 2 skipped.", Error},
		"only skips": {[]*File{file(Skip)}, "Success!", "0 passed, 0 failed, 1 skipped.", Pass},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			verdict, count := Summary(tc.files)
			if verdict != tc.verdict || count != tc.count {
				t.Errorf("got %q %q, want %q %q", verdict, count, tc.verdict, tc.count)
			}
			if got := SuiteStatus(tc.files); got != tc.status {
				t.Errorf("status %s, want %s", got, tc.status)
			}
		})
	}
}

func TestTraversalString(t *testing.T) {
	for _, src := range []string{`var.name`, `terraform_data.a`, `terraform_data.a[0]`, `module.m["x"].terraform_data.b`, `check.small`, `output.o`} {
		trav, diags := hclsyntax.ParseTraversalAbs([]byte(src), "", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if got := addrs.TraversalString(trav); got != src {
			t.Errorf("TraversalString(%s) = %s", src, got)
		}
	}
}

func TestLoadReportsBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := "run \"a\" {\n  command = plan\n}\nrun \"b\" {}\n"
	bad := "run \"a\" {\n  command = destroy\n}\nmystery {}\n"
	for name, src := range map[string]string{"good.tftest.hcl": good, "bad.tftest.hcl": bad} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, diags := Load(configs.NewParser(), dir, []string{"bad.tftest.hcl", "good.tftest.hcl"})
	var summaries []string
	for _, d := range diags {
		summaries = append(summaries, d.Summary)
	}
	if diff := cmp.Diff([]string{"Unsupported block type", `Invalid "command" keyword`}, summaries); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if files[0].Status != Error || files[0].Config != nil {
		t.Errorf("bad file: status %s", files[0].Status)
	}
	if len(files[1].Runs) != 2 || files[1].Runs[0].Config.Command != configs.TestCommandPlan || files[1].Runs[1].Config.Command != configs.TestCommandApply {
		t.Errorf("good file runs: %+v", files[1].Runs)
	}
}
