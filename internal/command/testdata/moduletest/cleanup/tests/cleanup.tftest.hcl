run "helper" {
  variables {
    name = "h1"
  }
  module {
    source = "./helper"
  }
}

run "first" {
  variables {
    name = "from-${run.helper.name}"
  }
}

run "second_state" {
  state_key = "other"
  variables {
    name = "other"
  }
}

run "replaced" {
  variables {
    name = "second"
  }
  assert {
    condition     = output.name == "wrong"
    error_message = "deliberately failing: ${output.name}"
  }
}
