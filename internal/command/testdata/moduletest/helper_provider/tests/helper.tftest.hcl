run "setup" {
  module {
    source = "./tests/setup"
  }
}

run "greets" {
  command = plan
  variables {
    name = run.setup.name
  }
  assert {
    condition     = output.greeting == "hello helper"
    error_message = "greeting is ${output.greeting}"
  }
}
