package command

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// provisionerSteps are applied in turn by TestE2EProvisionersMatchTerraform:
// creation-time provisioners (count, for_each, environment, interpreter,
// working_dir, quiet, a sensitive command, on_failure = fail and
// continue), then a replacement, which runs destroy-time and then
// creation-time provisioners, a removed block's destroy-time provisioner,
// and, for an instance count no longer has, a failing destroy-time
// provisioner.
var provisionerSteps = []string{`
variable "secret" {
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "a" {
  count            = 2
  triggers_replace = "one"
  input            = "in${count.index}"
  provisioner "local-exec" {
    command     = "echo created ${self.input} ${count.index} $GREETING; echo to stderr >&2"
    environment = { GREETING = "hello" }
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo destroying ${self.triggers_replace} ${count.index}"
  }
}
resource "terraform_data" "each" {
  for_each = { x = "ex" }
  input    = each.value
  provisioner "local-exec" {
    command = "printf '%s %s' ${each.key} ${self.output}"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${each.key} ${self.output}"
  }
}
resource "terraform_data" "fail" {
  provisioner "local-exec" {
    command = "echo failing; exit 3"
  }
}
resource "terraform_data" "cont" {
  provisioner "local-exec" {
    command    = "exit 4"
    on_failure = continue
  }
}
resource "terraform_data" "quiet" {
  provisioner "local-exec" {
    command     = "pwd"
    quiet       = true
    working_dir = "/"
    interpreter = ["/bin/bash", "-c"]
  }
}
resource "terraform_data" "secret" {
  provisioner "local-exec" {
    command = "echo ${var.secret}"
  }
}
`, `
resource "terraform_data" "a" {
  count            = 2
  triggers_replace = "two"
  input            = "in${count.index}"
  provisioner "local-exec" {
    command     = "echo created ${self.input} ${count.index} $GREETING; echo to stderr >&2"
    environment = { GREETING = "hello" }
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo destroying ${self.triggers_replace} ${count.index}"
  }
}
resource "terraform_data" "fail" {
  provisioner "local-exec" {
    when    = destroy
    command = "echo cannot; exit 5"
  }
}
removed {
  from = terraform_data.each
  provisioner "local-exec" {
    when    = destroy
    command = "echo removed ${each.key} ${self.input}"
  }
}
`, `
resource "terraform_data" "fail" {
  count = 0
  provisioner "local-exec" {
    when    = destroy
    command = "echo cannot; exit 5"
  }
}
`}

// TestE2EProvisionersMatchTerraform applies each step with both tools and
// compares what they print, resource by resource (their operations run
// concurrently), the errors, the exit codes and the resulting states.
func TestE2EProvisionersMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	type run struct {
		outputs []map[string][]string
		stderr  []string
		codes   []int
		state   []string
	}
	do := func(bin string) run {
		dir := t.TempDir()
		var r run
		for i, step := range provisionerSteps {
			writeFile(t, filepath.Join(dir, "main.tf"), step)
			if bin == tf && i == 0 {
				if res := runIn(t, dir, "", tf, "init", "-no-color", "-input=false"); res.code != 0 {
					t.Fatalf("terraform init: %s%s", res.stdout, res.stderr)
				}
			}
			res := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color", "-input=false")
			r.outputs = append(r.outputs, byResource(productless(res.stdout)))
			r.stderr = append(r.stderr, normalize(productless(res.stderr)))
			r.codes = append(r.codes, res.code)
		}
		var st struct {
			Resources []struct {
				Name      string `json:"name"`
				Instances []struct {
					IndexKey any    `json:"index_key"`
					Status   string `json:"status"`
				} `json:"instances"`
			} `json:"resources"`
		}
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
			t.Fatal(err)
		}
		for _, res := range st.Resources {
			for _, inst := range res.Instances {
				r.state = append(r.state, strings.TrimSpace(res.Name+" "+indexKey(inst.IndexKey)+" "+inst.Status))
			}
		}
		sort.Strings(r.state)
		return r
	}
	want := do(tf)
	got := do(strataBin)
	if diff := cmp.Diff(want.codes, got.codes); diff != "" {
		t.Errorf("exit codes differ (-terraform +strata)\n%s", diff)
	}
	for i := range provisionerSteps {
		if diff := cmp.Diff(want.outputs[i], got.outputs[i]); diff != "" {
			t.Errorf("step %d: output differs (-terraform +strata)\n%s", i+1, diff)
		}
		if diff := cmp.Diff(flat(want.stderr[i]), flat(got.stderr[i])); diff != "" {
			t.Errorf("step %d: errors differ (-terraform +strata)\n%s\n--- terraform\n%s\n--- strata\n%s", i+1, diff, want.stderr[i], got.stderr[i])
		}
	}
	if diff := cmp.Diff(want.state, got.state); diff != "" {
		t.Errorf("states differ (-terraform +strata)\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 0, 1}, got.codes); diff != "" {
		t.Errorf("wrong exit codes (-want +got)\n%s", diff)
	}
	if len(got.state) != 1 || got.state[0] != "fail 0" {
		t.Errorf("state after a failed destroy-time provisioner: %q", got.state)
	}
	for _, lines := range got.outputs[0] {
		for _, l := range lines {
			if strings.Contains(l, "hunter2") {
				t.Errorf("a sensitive value was printed: %q", l)
			}
		}
	}
}

func productless(s string) string {
	return strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply").Replace(s)
}

func indexKey(k any) string {
	if k == nil {
		return ""
	}
	return jsonString(k)
}

// progressAddr matches the address at the start of a progress line:
// "ADDR: Creating...", "ADDR (local-exec): output".
var progressAddr = regexp.MustCompile(`^((?:module\.|terraform_data\.)[^ :]+)(?::| \()`)

var elapsed = regexp.MustCompile(`after [0-9ms]+`)

// byResource splits apply output into each resource instance's progress
// lines, in order, with ids normalised; the other lines (the plan and the
// summary) go under "".
func byResource(stdout string) map[string][]string {
	out := map[string][]string{}
	for _, l := range strings.Split(normalize(elapsed.ReplaceAllString(stdout, "after Ns")), "\n") {
		key := ""
		if m := progressAddr.FindStringSubmatch(l); m != nil {
			key = m[1]
		}
		out[key] = append(out[key], l)
	}
	return out
}

// TestE2EProvisionersJSONMatchTerraform: apply -json reports provisioners
// with Terraform's provision_start, provision_progress,
// provision_complete and provision_errored messages.
func TestE2EProvisionersJSONMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	const config = `
resource "terraform_data" "ok" {
  provisioner "local-exec" {
    command = "echo one; printf two"
  }
}
resource "terraform_data" "fail" {
  provisioner "local-exec" {
    command = "exit 3"
  }
}
`
	provisionMessages := func(bin string) map[string][]map[string]any {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		if bin == tf {
			runIn(t, dir, "", tf, "init", "-no-color", "-input=false")
		}
		res := runIn(t, dir, "", bin, "apply", "-auto-approve", "-json", "-input=false")
		if res.code != 1 {
			t.Fatalf("%s apply: exit %d\n%s%s", bin, res.code, res.stdout, res.stderr)
		}
		out := map[string][]map[string]any{}
		for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%s: invalid JSON line %q", bin, line)
			}
			typ, _ := m["type"].(string)
			if !strings.HasPrefix(typ, "provision_") {
				continue
			}
			delete(m, "@timestamp")
			addr := m["hook"].(map[string]any)["resource"].(map[string]any)["addr"].(string)
			out[addr] = append(out[addr], m)
		}
		return out
	}
	want := provisionMessages(tf)
	got := provisionMessages(strataBin)
	if len(want["terraform_data.ok"]) != 5 || len(want["terraform_data.fail"]) != 3 {
		t.Fatalf("unexpected messages from terraform: %v", want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("provisioner messages differ (-terraform +strata)\n%s", diff)
	}
}
