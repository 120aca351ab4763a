mock_provider "stratafw" {
  override_during = plan
  mock_resource "stratafw_thing" {
    defaults = {
      id = "planned-id"
    }
  }
}

run "known_at_plan" {
  command = plan
  assert {
    condition     = output.id == "planned-id"
    error_message = "planned id is not known"
  }
  assert {
    condition     = output.size == 0
    error_message = "size is ${output.size}"
  }
}

run "override_known_at_plan" {
  command = plan
  override_resource {
    target          = stratafw_thing.a
    override_during = plan
    values = {
      id = "from-override"
    }
  }
  assert {
    condition     = output.id == "from-override"
    error_message = "override not known at plan"
  }
}

run "override_at_apply" {
  command = plan
  override_resource {
    target          = stratafw_thing.a
    override_during = apply
    values = {
      id = "late"
    }
  }
  assert {
    condition     = output.id == "late"
    error_message = "late"
  }
}
