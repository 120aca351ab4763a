package command

import (
	"strings"
	"testing"
)

// TestE2EValidateWalkMatchesTerraform: an error in one object's
// references (an undeclared variable, local, resource or module, count or
// each where there is none, a bad depends_on entry) does not stop
// validate: as in Terraform, the object fails with it, what depends on it
// is skipped, and everything else is still checked (ignore_changes
// entries, expressions, outputs). Compared byte for byte with terraform,
// with and without colour.
func TestE2EValidateWalkMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	cases := map[string]string{
		// The undeclared variable is in a precondition: the resource's
		// ignore_changes is still checked.
		"precondition and ignore_changes": `resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    ignore_changes = [nope]
    precondition {
      condition     = var.undeclared == "y"
      error_message = "bad"
    }
  }
}
`,
		// An error in the configuration itself: ignore_changes is not
		// checked.
		"config error hides ignore_changes": `resource "terraform_data" "a" {
  input = var.undeclared
  lifecycle {
    ignore_changes = [nope]
  }
}
resource "terraform_data" "b" {
  input = 1 + "a"
  lifecycle {
    ignore_changes = [nope]
  }
}
`,
		// What depends on a failed local is skipped; the rest is checked.
		"dependents skipped": `locals {
  l = var.undeclared
}
resource "terraform_data" "a" {
  input = local.l
  lifecycle {
    ignore_changes = [nope]
  }
}
resource "terraform_data" "b" {
  lifecycle {
    ignore_changes = [nope2]
  }
}
output "o" {
  value = local.nope
}
`,
		// A resource that fails skips those that refer to it, so their
		// own undeclared references are not reported.
		"failed resource skips referrers": `resource "terraform_data" "b" {
  lifecycle {
    ignore_changes = [nope2]
  }
}
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = terraform_data.b.output == 1 && var.x
      error_message = "x"
    }
  }
}
output "o" {
  value = terraform_data.b.nope
}
`,
		"depends_on": `resource "terraform_data" "a" {
  depends_on = [terraform_data.nope]
}
resource "terraform_data" "b" {
  lifecycle {
    ignore_changes = [nope2]
  }
}
`,
		"invalid references": `locals {
  a = foo.bar
  b = var.y
}
resource "terraform_data" "b" {
  lifecycle {
    ignore_changes = [nope2]
  }
}
resource "terraform_data" "a" {
  input = count.index
  lifecycle {
    replace_triggered_by = [terraform_data.zz]
  }
}
output "p" {
  value = path.nope
}
output "q" {
  value = each.key
}
output "r" {
  value = module.nope.x
}
output "s" {
  value = self
}
output "t" {
  value = module.nope2["a"]
}
output "u" {
  value = module.nope3
}
`,
		// Postconditions: self's attributes are checked against the
		// schema (with Terraform's extra "Unknown variable" for each
		// self of the expression), also after a configuration error;
		// provisioners' self too.
		"postcondition self": `resource "terraform_data" "a" {
  input = var.zz
  lifecycle {
    postcondition {
      condition     = self.output == "x" && self.nope == 1
      error_message = "x ${self.nope3}"
    }
  }
}
resource "terraform_data" "c" {
  provisioner "local-exec" {
    command = "echo ${self.nope}"
  }
}
data "terraform_remote_state" "x" {
  backend = "local"
  lifecycle {
    postcondition {
      condition     = self.nope2
      error_message = "x"
    }
  }
}
`,
		// A condition may not name its own resource; a precondition that
		// does hides the postconditions' errors.
		"conditions naming their resource": `resource "terraform_data" "c" {
  lifecycle {
    postcondition {
      condition     = self.nope
      error_message = "x"
    }
    precondition {
      condition     = terraform_data.c.nope2 == 1
      error_message = "x"
    }
  }
}
resource "terraform_data" "e" {
  lifecycle {
    postcondition {
      condition     = terraform_data.e.output == 1
      error_message = "x"
    }
  }
}
`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := writeFiles(t, map[string]string{"main.tf": src})
			for _, args := range [][]string{{"validate", "-no-color"}, {"validate"}, {"plan", "-no-color"}} {
				want, got := runIn(t, dir, "", tf, args...), runIn(t, dir, "", strataBin, args...)
				if got.code != want.code || got.stdout != want.stdout || got.stderr != want.stderr {
					t.Errorf("%s: strata exit %d, terraform %d\nstrata stdout:\n%s\nstrata stderr:\n%s\nterraform stdout:\n%s\nterraform stderr:\n%s",
						strings.Join(args, " "), got.code, want.code, got.stdout, got.stderr, want.stdout, want.stderr)
				}
			}
		})
	}
}
