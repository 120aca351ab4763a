package command

import (
	"path/filepath"
	"strings"
	"testing"
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
