package command

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

const cbdChainConfig = `variable "v" { default = "1" }
variable "cbd" { default = true }
resource "terraform_data" "c" { triggers_replace = var.v }
resource "terraform_data" "b" { input = terraform_data.c.id }
resource "terraform_data" "d" { triggers_replace = var.v }
resource "terraform_data" "a" {
  input      = terraform_data.b.id
  depends_on = [terraform_data.d]
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "e" { triggers_replace = var.v }
`

// TestE2ECreateBeforeDestroyInherited: the resources a
// create_before_destroy resource depends on, directly, through another
// resource or through depends_on, are replaced create-then-destroy too and
// carry the flag in the state; a resource no CBD resource depends on is
// replaced destroy-first. Compared with Terraform.
func TestE2ECreateBeforeDestroyInherited(t *testing.T) {
	tf := terraformBin(t)
	type outcome struct {
		Flags   map[string]bool
		Actions map[string][]string
	}
	run := func(bin string) outcome {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), cbdChainConfig)
		for _, args := range [][]string{{"init", "-input=false"}, {"apply", "-auto-approve", "-input=false"}, {"plan", "-input=false", "-var", "v=2", "-out=p"}} {
			if r := runIn(t, dir, "", bin, args...); r.code != 0 {
				t.Fatalf("%s %v: %s%s", bin, args, r.stdout, r.stderr)
			}
		}
		var st struct {
			Resources []struct {
				Name      string
				Instances []struct {
					CreateBeforeDestroy bool `json:"create_before_destroy"`
				}
			}
		}
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
			t.Fatal(err)
		}
		o := outcome{Flags: map[string]bool{}, Actions: map[string][]string{}}
		for _, r := range st.Resources {
			o.Flags[r.Name] = r.Instances[0].CreateBeforeDestroy
		}
		r := runIn(t, dir, "", bin, "show", "-json", "p")
		var plan struct {
			ResourceChanges []struct {
				Address string
				Change  struct{ Actions []string }
			} `json:"resource_changes"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil {
			t.Fatalf("show -json: %v\n%s", err, r.stdout)
		}
		for _, rc := range plan.ResourceChanges {
			o.Actions[rc.Address] = rc.Change.Actions
		}
		return o
	}
	want, got := run(tf), run(strataBin)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("strata: %+v\nterraform: %+v", got, want)
	}
	if !reflect.DeepEqual(want.Actions["terraform_data.c"], []string{"create", "delete"}) || !reflect.DeepEqual(want.Actions["terraform_data.e"], []string{"delete", "create"}) {
		t.Errorf("the configuration no longer shows inheritance: terraform plans %v", want.Actions)
	}
}
