package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestE2EImportProviderMatchesTerraform: an import block's provider
// argument is refused where it is not for generating configuration, with
// Terraform's error, and where it is accepted the imported objects are
// recorded under that provider configuration, as Terraform records them.
// (The plans are compared in testdata/compat/import_provider*.)
func TestE2EImportProviderMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	const alt = "provider \"terraform\" {\n  alias = \"alt\"\n}\n"
	invalid := map[string]string{
		"resource without provider": alt + `import {
  to       = terraform_data.a
  id       = "x1"
  provider = terraform.alt
}
resource "terraform_data" "a" {}
`,
		"implied provider named": `import {
  to       = terraform_data.a
  id       = "x1"
  provider = terraform
}
resource "terraform_data" "a" {}
`,
		"other provider": alt + `import {
  to       = terraform_data.a
  id       = "x1"
  provider = terraform
}
resource "terraform_data" "a" {
  provider = terraform.alt
}
`,
		"module target": alt + `module "m" {
  source = "./m"
}
import {
  to       = module.m.terraform_data.a
  id       = "x1"
  provider = terraform.alt
}
`,
	}
	for name, config := range invalid {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var outs []result
			for _, bin := range []string{tf, strataBin} {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), config)
				if err := os.MkdirAll(filepath.Join(dir, "m"), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(dir, "m", "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
				runIn(t, dir, "", bin, "init", "-no-color")
				outs = append(outs, runIn(t, dir, "", bin, "validate", "-no-color"))
			}
			want, got := outs[0], outs[1]
			if got.code != want.code || want.code != 1 {
				t.Errorf("exit code %d, terraform %d", got.code, want.code)
			}
			if g, w := normalize(got.stderr), normalize(productless(want.stderr)); g != w {
				t.Errorf("error differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", w, g)
			}
		})
	}

	t.Run("applied", func(t *testing.T) {
		config := string(readFile(t, filepath.Join("testdata", "compat", "import_provider", "step2.tf")))
		var states []string
		for _, bin := range []string{tf, strataBin} {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), config)
			runIn(t, dir, "", bin, "init", "-no-color")
			if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
				t.Fatalf("%s apply: %s%s", bin, r.stdout, r.stderr)
			}
			var st struct {
				Resources []struct {
					Name      string `json:"name"`
					Provider  string `json:"provider"`
					Instances []struct {
						IndexKey   any            `json:"index_key"`
						Attributes map[string]any `json:"attributes"`
					} `json:"instances"`
				} `json:"resources"`
			}
			if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, r := range st.Resources {
				if r.Name == "seed" {
					continue // created, with a random id
				}
				for _, in := range r.Instances {
					lines = append(lines, r.Name+indexKey(in.IndexKey)+" "+r.Provider+" "+jsonString(in.Attributes["id"]))
				}
			}
			sort.Strings(lines)
			states = append(states, strings.Join(lines, "\n"))
		}
		if states[0] != states[1] {
			t.Errorf("state differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", states[0], states[1])
		}
		if !strings.Contains(states[1], `each"p" provider["terraform.io/builtin/terraform"].alt "id-p"`) {
			t.Errorf("the imported instance is not recorded under its provider:\n%s", states[1])
		}
	})
}
