# run.plan_only.out is known only after an apply (Terraform's
# nested_unknown_values fixture).
run "plan_only" {
  command = plan
  module {
    source = "./tests/plain"
  }
  variables {
    input = "w"
  }
}

run "uses_unknown" {
  module {
    source = "./tests/plain"
  }
  variables {
    input = run.plan_only.out
  }
}
