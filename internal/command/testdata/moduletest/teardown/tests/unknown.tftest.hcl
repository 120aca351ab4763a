variables {
  input = "z"
}

# A check known only after the apply fails a plan run.
run "plan_only" {
  command = plan
}

run "after" {}
