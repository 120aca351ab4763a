package command

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EDataDir: TF_DATA_DIR moves what init records (the backend
// settings, the selected workspace, installed providers and modules) out
// of .terraform, as in Terraform; without it, the same directory is not
// initialised. Compared with terraform when installed.
func TestE2EDataDir(t *testing.T) {
	t.Parallel()
	config := "terraform {\n  backend \"local\" {\n    path = \"s.tfstate\"\n  }\n}\nresource \"terraform_data\" \"a\" {}\n"
	type outcome struct {
		Init, WorkspaceNew, Plan, PlanWithout int
		Files                                 []string
		DotTerraform                          bool
	}
	run := func(bin string) outcome {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		env := []string{"TF_DATA_DIR=ci/data"}
		var o outcome
		o.Init = runWith(t, dir, "", bin, env, "init", "-no-color").code
		o.WorkspaceNew = runWith(t, dir, "", bin, env, "workspace", "new", "dev", "-no-color").code
		o.Plan = runWith(t, dir, "", bin, env, "plan", "-no-color").code
		for _, f := range []string{"terraform.tfstate", "environment"} {
			if _, err := os.Stat(filepath.Join(dir, "ci", "data", f)); err == nil {
				o.Files = append(o.Files, f)
			}
		}
		_, err := os.Stat(filepath.Join(dir, ".terraform"))
		o.DotTerraform = err == nil
		o.PlanWithout = runWith(t, dir, "", bin, []string{"TF_DATA_DIR="}, "plan", "-no-color").code
		return o
	}
	got := run(strataBin)
	want := outcome{Plan: 0, PlanWithout: 1, Files: []string{"terraform.tfstate", "environment"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TF_DATA_DIR (-want +got)\n%s", diff)
	}
	if tf, err := referenceTerraform(); err == nil {
		if diff := cmp.Diff(run(tf), got); diff != "" {
			t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
		}
	}
}
