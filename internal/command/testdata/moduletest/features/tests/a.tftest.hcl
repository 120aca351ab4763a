variables {
  name = "abc"
}
run "setup" {
  module {
    source = "./setup"
  }
}
run "plan_it" {
  command = plan
  variables {
    name = "${run.setup.prefix}-x"
  }
  assert {
    condition     = local.upper == "PRE-X"
    error_message = "upper wrong"
  }
  assert {
    condition     = length(terraform_data.r) == 1
    error_message = "count wrong"
  }
}
run "apply_it" {
  variables {
    n = 2
  }
  assert {
    condition     = output.names == ["abc-0", "abc-1"]
    error_message = "names wrong: ${join(",", output.names)}"
  }
}
run "bad_name" {
  command = plan
  variables {
    name = "x"
  }
  expect_failures = [var.name]
}
run "fails" {
  assert {
    condition     = output.upper == "nope"
    error_message = "upper is ${output.upper}"
  }
}
