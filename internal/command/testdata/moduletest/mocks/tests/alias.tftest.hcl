mock_provider "stratafw" {
  alias = "real"
  mock_resource "stratafw_thing" {
    defaults = {
      id = "mocked-alias"
    }
  }
}

run "only_the_alias_is_mocked" {
  assert {
    condition     = output.real_id == "mocked-alias"
    error_message = "real_id is ${output.real_id}"
  }
  assert {
    condition     = output.id != "mocked-alias" && output.id != "thing-1"
    error_message = "the default configuration was mocked: ${output.id}"
  }
}
