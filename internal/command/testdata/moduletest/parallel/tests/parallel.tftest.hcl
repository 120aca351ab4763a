# Runs with different states and no references between them run at the
# same time; the output keeps the file's order. "c" waits for "b" (it
# refers to it), "d" for "a" (same state), "e" for everything (it is not
# parallel). An error skips only the runs that wait for the run.
test {
  parallel = true
}

run "a" {
  state_key = "a"
  variables {
    name = "a"
  }
}

run "b" {
  state_key = "b"
  variables {
    name = "b"
  }
  assert {
    condition     = output.name
    error_message = "not a bool"
  }
}

run "c" {
  state_key = "c"
  variables {
    name = "${run.b.name}-c"
  }
}

run "d" {
  state_key = "a"
  variables {
    name = "d"
  }
  assert {
    condition     = output.name == "d"
    error_message = "name is ${output.name}"
  }
}

run "e" {
  parallel  = false
  state_key = "e"
  variables {
    name = "e"
  }
}
