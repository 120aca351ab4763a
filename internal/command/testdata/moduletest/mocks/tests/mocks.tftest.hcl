mock_provider "stratafw" {
  mock_resource "stratafw_thing" {
    defaults = {
      id      = "thing-1"
      created = "today"
    }
  }
  mock_data "stratafw_echo" {
    defaults = {
      result = "echoed"
    }
  }
}

run "mocked" {
  assert {
    condition     = output.id == "thing-1"
    error_message = "id is ${output.id}"
  }
  assert {
    condition     = output.echo == "echoed"
    error_message = "echo is ${output.echo}"
  }
  assert {
    condition     = output.size == 0
    error_message = "size is ${output.size}"
  }
  assert {
    condition     = stratafw_thing.a.created == "today"
    error_message = "created is ${stratafw_thing.a.created}"
  }
  assert {
    condition     = terraform_data.t.output == "thing-1"
    error_message = "t is ${terraform_data.t.output}"
  }
  assert {
    condition     = data.stratafw_echo.e.length == 0
    error_message = "length"
  }
}

run "planned" {
  command   = plan
  state_key = "fresh"
  assert {
    condition     = stratafw_thing.a.name == "one"
    error_message = "name"
  }
}

run "overridden" {
  state_key = "other"
  override_resource {
    target = stratafw_thing.a
    values = {
      id = "over"
    }
  }
  override_data {
    target = data.stratafw_echo.e
    values = {
      result = "ov"
    }
  }
  override_resource {
    target = terraform_data.t
    values = {
      output = "fixed"
    }
  }
  assert {
    condition     = output.id == "over" && output.echo == "ov" && terraform_data.t.output == "fixed"
    error_message = "${output.id} ${output.echo} ${terraform_data.t.output}"
  }
}

run "plan_unknown" {
  command   = plan
  state_key = "third"
  assert {
    condition     = output.id == "thing-1"
    error_message = "planned id"
  }
}
