run "real" {
  assert {
    condition     = output.value == "real" && output.other == "other-real"
    error_message = "real module: ${output.value} ${output.other}"
  }
}

run "overridden" {
  state_key = "fake"
  override_module {
    target = module.child
    outputs = {
      value = "fake"
    }
  }
  assert {
    condition     = output.value == "fake"
    error_message = "value is ${output.value}"
  }
  assert {
    condition     = terraform_data.uses.output == "fake"
    error_message = "uses ${terraform_data.uses.output}"
  }
  assert {
    condition     = output.other == null
    error_message = "other is not null"
  }
}

run "plan_overridden" {
  command   = plan
  state_key = "plan"
  override_module {
    target = module.child
    outputs = {
      value = "planned"
    }
  }
  assert {
    condition     = terraform_data.uses.input == "planned"
    error_message = "uses ${terraform_data.uses.input}"
  }
}
