package command

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// conditionMessageCases are configurations whose conditions have error
// messages that cannot be shown: unknown, null, not a string, failing to
// evaluate, sensitive. Terraform reports each in its own way, and differently
// for variable validations.
var conditionMessageCases = map[string]struct {
	config string
	args   []string
	files  map[string]string
}{
	"failed conditions": {config: `
variable "ok" {
  default = false
}
variable "n" {
  type    = string
  default = null
}
variable "s" {
  default = "{"
}
variable "l" {
  default = ["a"]
}
resource "terraform_data" "u" {
  input = "y"
}
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "id is ${terraform_data.u.id}"
    }
    precondition {
      condition     = var.ok
      error_message = var.n
    }
    precondition {
      condition     = var.ok
      error_message = var.l
    }
    precondition {
      condition     = var.ok
      error_message = sensitive("secret")
    }
  }
}
check "unknown" {
  assert {
    condition     = var.ok
    error_message = terraform_data.u.output
  }
}
check "null" {
  assert {
    condition     = var.ok
    error_message = var.n
  }
}
check "err" {
  assert {
    condition     = var.ok
    error_message = jsondecode(var.s)
  }
}
output "err" {
  value = 1
  precondition {
    condition     = var.ok
    error_message = jsondecode(var.s)
  }
}
`},
	"conditions that hold": {config: `
variable "ok" {
  default = true
}
variable "n" {
  type    = string
  default = null
}
variable "s" {
  default = "{"
}
resource "terraform_data" "u" {
  input = 1
}
resource "terraform_data" "a" {
  input = 1
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = jsondecode(var.s)
    }
    precondition {
      condition     = terraform_data.u.output == 1
      error_message = var.n
    }
    precondition {
      condition     = var.ok
      error_message = sensitive("x")
    }
  }
}
check "c" {
  assert {
    condition     = var.ok
    error_message = var.n
  }
}
output "o" {
  value = 1
  precondition {
    condition     = var.ok
    error_message = var.n
  }
}
`},
	"variable validations": {config: `
variable "s" {
  default = "{"
}
variable "n" {
  type    = string
  default = null
}
variable "l" {
  default = ["a"]
}
resource "terraform_data" "u" {
  input = "y"
}
variable "plain" {
  default = 1
  validation {
    condition     = var.plain > 2
    error_message = "too small"
  }
}
variable "unknown" {
  default = 1
  validation {
    condition     = var.unknown > 2
    error_message = "id ${terraform_data.u.id}"
  }
}
variable "err" {
  default = 1
  validation {
    condition     = var.err > 2
    error_message = jsondecode(var.s)
  }
}
variable "null" {
  default = 1
  validation {
    condition     = var.null > 2
    error_message = var.n
  }
}
variable "list" {
  default = 1
  validation {
    condition     = var.list > 2
    error_message = var.l
  }
}
variable "sens" {
  default = 1
  validation {
    condition     = var.sens > 2
    error_message = sensitive("x")
  }
}
variable "sensvar" {
  default   = 1
  sensitive = true
  validation {
    condition     = var.sensvar > 2
    error_message = "value ${var.sensvar}"
  }
}
variable "holds" {
  default = 3
  validation {
    condition     = var.holds > 2
    error_message = sensitive("x")
  }
}
variable "fromfile" {
  default = 3
  validation {
    condition     = var.fromfile > 2
    error_message = "too small"
  }
}
`, args: []string{"-var-file=x.tfvars"}, files: map[string]string{"x.tfvars": "fromfile = 1\n"}},
	"repeated warnings": {config: `
variable "ok" {
  default = true
}
resource "terraform_data" "a" {
  count = 3
  input = 1
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = sensitive("x")
    }
  }
}
check "one" {
  assert {
    condition     = !var.ok
    error_message = "one failed"
  }
}
check "two" {
  assert {
    condition     = !var.ok
    error_message = "two failed"
  }
}
`},
	"values shown under the snippet": {config: `
variable "a" {
  default = []
}
variable "b" {
  default = {}
}
variable "c" {
  type    = list(string)
  default = []
}
variable "d" {
  type    = map(number)
  default = { x = 1 }
}
variable "e" {
  default = ["q", "r"]
}
variable "o" {
  default = { a = 1 }
}
variable "s" {
  default = "{"
}
output "o" {
  value = jsondecode("${var.s}${length(var.a)}${length(var.b)}${length(var.c)}${length(var.d)}${length(var.e)}${length(var.o)}")
}
`},
}

// TestE2EConditionMessagesMatchTerraform plans each of
// conditionMessageCases with Terraform and with strata and compares what
// they print, diagnostics included, apart from the product name.
func TestE2EConditionMessagesMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	for name, tc := range conditionMessageCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), tc.config)
			for f, content := range tc.files {
				writeFile(t, filepath.Join(dir, f), content)
			}
			args := append([]string{"plan", "-no-color", "-input=false"}, tc.args...)
			want := runIn(t, dir, "", tf, args...)
			got := strata(t, dir, args...)
			if got.code != want.code {
				t.Errorf("exit code %d, terraform %d", got.code, want.code)
			}
			product := strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply")
			for _, out := range []struct{ what, want, got string }{
				{"stdout", want.stdout, got.stdout},
				{"stderr", want.stderr, got.stderr},
			} {
				w, g := normalize(product.Replace(out.want)), normalize(out.got)
				if g != w && flat(g) != flat(w) {
					t.Errorf("%s differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", out.what, w, g)
				}
			}
		})
	}
}

// TestE2EExpansionMessages: an unknown count, an unknown for_each set and
// map, and prevent_destroy give Terraform's messages (with the -target
// advice and the unknown values under the for_each snippets); compared
// with terraform, the product name aside, word for word (the name changes
// where lines wrap) when installed.
func TestE2EExpansionMessages(t *testing.T) {
	t.Parallel()
	const config = `resource "terraform_data" "u" {}
resource "terraform_data" "c" {
  count = length(terraform_data.u.id)
}
resource "terraform_data" "f" {
  for_each = toset([terraform_data.u.id])
}
resource "terraform_data" "m" {
  for_each = { (terraform_data.u.id) = 1 }
}
`
	const guarded = "resource \"terraform_data\" \"g\" {\n  input = 1\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n"
	run := func(bin string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		plan := runIn(t, dir, "", bin, "plan", "-no-color")
		writeFile(t, filepath.Join(dir, "main.tf"), guarded)
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s", bin, r.stderr)
		}
		destroy := runIn(t, dir, "", bin, "destroy", "-auto-approve", "-no-color")
		// Terraform reports the three errors in any order.
		errs := strings.Split(flat(plan.stderr), "Error: ")
		sort.Strings(errs)
		return []string{fmt.Sprint(plan.code), strings.Join(errs, " | "), fmt.Sprint(destroy.code), flat(destroy.stderr)}
	}
	got := run(strataBin)
	for _, want := range []string{
		`The "count" value depends on resource attributes that cannot be determined until apply, so strata cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.`,
		`│ terraform_data.u.id is a string, known only after apply`,
		`The "for_each" set includes values derived from resource attributes`,
		`The "for_each" map includes keys derived from resource attributes`,
		`Alternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge.`,
	} {
		if got[0] != "1" || !strings.Contains(got[1], want) {
			t.Errorf("plan: exit %s, stderr lacks %q:\n%s", got[0], want, got[1])
		}
	}
	if want := "either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target option."; got[2] != "1" || !strings.Contains(got[3], want) {
		t.Errorf("destroy: exit %s, stderr lacks %q:\n%s", got[2], want, got[3])
	}
	if tf, err := referenceTerraform(); err == nil {
		want := run(tf)
		for i := range want {
			want[i] = strings.ReplaceAll(want[i], "Terraform", "strata")
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
		}
	}
}
