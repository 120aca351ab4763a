# The provider block is evaluated in the test file: its variables and the
# outputs of the runs before.
variables {
  prefix = "p-"
}

provider "stratafw" {
  prefix = "${var.prefix}${run.first.id}-"
}

provider "stratafw" {
  alias  = "plain"
  prefix = var.prefix
}

run "first" {
  providers = {
    stratafw = stratafw.plain
  }
  variables {
    name = "one"
  }
  assert {
    condition     = output.id == "p-one"
    error_message = "id is ${output.id}"
  }
}

run "second" {
  variables {
    name = "two"
  }
  assert {
    condition     = output.id == "p-p-one-two"
    error_message = "id is ${output.id}"
  }
  # A provider function beside output (Terraform's
  # provider-functions-available fixture).
  assert {
    condition     = provider::stratafw::upper(output.id) == "P-P-ONE-TWO"
    error_message = "upper is ${provider::stratafw::upper(output.id)}"
  }
}
