# Check blocks only warn: one fails, one is known only after apply, one has
# a nested data source that fails (its error is a warning and the check's
# assertion is skipped), and one passes.
variable "want" {
  default = "a"
}

resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = "b"
}

check "static" {
  assert {
    condition     = var.want == "b"
    error_message = "want is ${var.want}, not b"
  }
}

check "later" {
  assert {
    condition     = terraform_data.b.output == "zz"
    error_message = "output is not zz"
  }
}

check "scoped" {
  data "terraform_remote_state" "s" {
    backend = "local"
    config = {
      path = "missing.tfstate"
    }
  }

  assert {
    condition     = length(data.terraform_remote_state.s.outputs) > 0
    error_message = "no outputs"
  }
}

check "passes" {
  assert {
    condition     = terraform_data.a.output == "a"
    error_message = "a changed"
  }
}
