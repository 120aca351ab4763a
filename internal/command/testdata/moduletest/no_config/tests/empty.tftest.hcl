run "nothing" {
  command = plan
}

run "applied" {
  assert {
    condition     = length(run.nothing) == 0
    error_message = "never"
  }
}
