run "data_only" {
  module {
    source = "./tests/data"
  }
  variables {
    input = "y"
  }
  assert {
    condition     = output.echo == "fw-y"
    error_message = "echo is ${output.echo}"
  }
}
