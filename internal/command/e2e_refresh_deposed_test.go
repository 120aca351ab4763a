package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// deposedState is the state Terraform leaves when the destroy of a
// create_before_destroy replacement fails: stratafw_thing.a's new object
// is current and the old one, fw-old, deposed. Laid out as Terraform
// writes it.
const deposedState = `{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 1,
  "lineage": "e3dc04a0-a6c4-8c71-37ca-ca42259b7024",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "stratafw_thing",
      "name": "a",
      "provider": "provider[\"registry.terraform.io/strata/stratafw\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {
            "created": "created",
            "description": "d",
            "id": "fw-a",
            "labels": null,
            "name": "a",
            "password_set": false,
            "password_wo": null,
            "rules": null,
            "secret": null,
            "settings": null,
            "size": 1,
            "sleep_seconds": null,
            "tag": []
          },
          "sensitive_attributes": [
            [
              {
                "type": "get_attr",
                "value": "secret"
              }
            ]
          ],
          "private": "eyJjcmVhdGVkX2J5IjoiSW5OMGNtRjBZV1ozSWc9PSJ9",
          "create_before_destroy": true
        },
        {
          "deposed": "00000001",
          "schema_version": 0,
          "attributes": {
            "created": "created",
            "description": "d",
            "id": "fw-old",
            "labels": null,
            "name": "a",
            "password_set": false,
            "password_wo": null,
            "rules": null,
            "secret": null,
            "settings": null,
            "size": 1,
            "sleep_seconds": null,
            "tag": []
          },
          "sensitive_attributes": [
            [
              {
                "type": "get_attr",
                "value": "secret"
              }
            ]
          ],
          "private": "eyJjcmVhdGVkX2J5IjoiSW5OMGNtRjBZV1ozSWc9PSJ9",
          "create_before_destroy": true
        }
      ]
    }
  ],
  "check_results": null
}
`

// TestE2ERefreshOnlyDeposedMatchesTerraform: with a deposed object in
// the state, a refresh-only plan is applyable exactly when Terraform's
// is (when refreshing changed or removed the deposed object, not
// otherwise): the same -detailed-exitcode, show -json "applyable", and
// state after apply -refresh-only (the serial included). The progress
// lines name the deposed object, as Terraform's do.
func TestE2ERefreshOnlyDeposedMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	mirror := testProviderMirror(t)
	const config = `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}
resource "stratafw_thing" "a" {
  name        = "a"
  description = "d"
  lifecycle {
    create_before_destroy = true
  }
}
`
	type outcome struct {
		PlanCode   int
		Progress   []string
		Applyable  any
		ApplyCode  int
		Serial     any
		Objects    []string
		ApplyError string
	}
	for name, drift := range map[string]string{
		"no drift":        "",
		"deposed changed": `{"description": "changed"}`,
		"deposed deleted": `null`,
		"current changed": "current",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(bin string) outcome {
				dir, driftDir := t.TempDir(), t.TempDir()
				cliConfig := filepath.Join(dir, "cli.tfrc")
				writeFile(t, cliConfig, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
				writeFile(t, filepath.Join(dir, "main.tf"), config)
				if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), []byte(deposedState), 0o600); err != nil {
					t.Fatal(err)
				}
				switch drift {
				case "":
				case "current":
					writeFile(t, filepath.Join(driftDir, "fw-a.json"), `{"size": 3}`)
				default:
					writeFile(t, filepath.Join(driftDir, "fw-old.json"), drift)
				}
				env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "STRATAFW_DRIFT_DIR=" + driftDir}
				r := runWith(t, dir, "", bin, env, "init", "-no-color")
				if r.code != 0 {
					t.Fatalf("%s init: %s%s", bin, r.stdout, r.stderr)
				}
				var o outcome
				r = runWith(t, dir, "", bin, env, "plan", "-refresh-only", "-detailed-exitcode", "-no-color", "-out=p")
				o.PlanCode = r.code
				for _, l := range strings.Split(r.stdout, "\n") {
					if strings.Contains(l, "Refreshing state...") {
						o.Progress = append(o.Progress, l)
					}
				}
				sort.Strings(o.Progress)
				r = runWith(t, dir, "", bin, env, "show", "-json", "p")
				var shown map[string]any
				if err := json.Unmarshal([]byte(r.stdout), &shown); err != nil {
					t.Fatalf("%s show -json: %v\n%s%s", bin, err, r.stdout, r.stderr)
				}
				o.Applyable = shown["applyable"]
				r = runWith(t, dir, "", bin, env, "apply", "-refresh-only", "-auto-approve", "-no-color")
				o.ApplyCode, o.ApplyError = r.code, r.stderr
				var st struct {
					Serial    any
					Resources []struct {
						Instances []struct {
							Deposed    string
							Attributes map[string]any
						}
					}
				}
				if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
					t.Fatal(err)
				}
				o.Serial = st.Serial
				for _, r := range st.Resources {
					for _, i := range r.Instances {
						o.Objects = append(o.Objects, fmt.Sprintf("%s %v %v %v", i.Deposed, i.Attributes["id"], i.Attributes["description"], i.Attributes["size"]))
					}
				}
				sort.Strings(o.Objects)
				return o
			}
			got, want := run(strataBin), run(tf)
			want.ApplyError = strings.ReplaceAll(want.ApplyError, "Terraform", "strata")
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("differs from terraform:\nterraform: %+v\nstrata:    %+v", want, got)
			}
		})
	}
}
