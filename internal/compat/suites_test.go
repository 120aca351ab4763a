package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPatchApply(t *testing.T) {
	tests := map[string]struct {
		content string
		p       patch
		want    string
		err     string
	}{
		"replaced once": {
			content: "module m\n\ngodebug tlskyber=0\n",
			p:       patch{File: "go.mod", Old: "godebug tlskyber=0\n", New: ""},
			want:    "module m\n\n",
		},
		"no longer applies": {
			content: "module m\n",
			p:       patch{File: "go.mod", Old: "godebug tlskyber=0\n"},
			err:     "0 times, not once",
		},
		"ambiguous": {
			content: "var x bool\nvar x bool\n",
			p:       patch{File: "go.mod", Old: "var x bool\n", New: "var x = true\n"},
			err:     "2 times, not once",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.p.File)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			err := tc.p.apply(dir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.want {
				t.Errorf("file %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSuiteLDFlags(t *testing.T) {
	s := suite{LDFlags: []string{"example.com/p.bin={bin}", "example.com/v.dev=no"}}
	for bin, want := range map[string]string{
		"/tmp/strata":      "-X example.com/p.bin=/tmp/strata -X example.com/v.dev=no",
		"/tmp/my dir/tool": `-X "example.com/p.bin=/tmp/my dir/tool" -X example.com/v.dev=no`,
	} {
		if got := s.ldflags(bin); got != want {
			t.Errorf("ldflags(%q) = %s, want %s", bin, got, want)
		}
	}
}

func TestSuiteUnexpected(t *testing.T) {
	base := ParseTestJSON(strings.NewReader(`{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestB"}
{"Action":"pass","Package":"p","Test":"TestC"}
`))
	got := ParseTestJSON(strings.NewReader(`{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Test":"TestB"}
{"Action":"pass","Package":"p","Test":"TestC"}
`))
	s := suite{Known: map[string]string{"TestB": "product name", "TestC": "product name"}}
	if diff := cmp.Diff([]string{"TestA"}, s.unexpected(got, base)); diff != "" {
		t.Errorf("wrong unexpected regressions (-want +got)\n%s", diff)
	}
}

// TestTerraformE2EPatches: the terraform-e2e suite's patches apply to the
// pinned release's files (from the module cache, when it holds them).
func TestTerraformE2EPatches(t *testing.T) {
	var s suite
	for _, x := range suites {
		if x.Name == "terraform-e2e" {
			s = x
		}
	}
	if len(s.Patches) == 0 {
		t.Fatal("no terraform-e2e suite with patches")
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skip("no go command")
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "github.com", "hashicorp", "terraform@v1.11.4")
	if _, err := os.Stat(src); err != nil {
		t.Skip("Terraform v1.11.4 is not in the module cache")
	}
	dir := t.TempDir()
	for _, p := range s.Patches {
		b, err := os.ReadFile(filepath.Join(src, p.File))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, p.File)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := p.apply(dir); err != nil {
			t.Error(err)
		}
	}
}
