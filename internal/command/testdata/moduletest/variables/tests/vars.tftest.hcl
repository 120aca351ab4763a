variables {
  label = "label-${var.org}"
  secret = "s"
  # Never evaluated: no run needs it.
  unused = var.nope
}

run "nulls" {
  assert {
    condition     = output.value == null
    error_message = "value should be null"
  }
  assert {
    condition     = var.label == "label-main-org"
    error_message = "label is ${var.label}"
  }
  assert {
    condition     = var.input == "from-tests-dir"
    error_message = "input is ${var.input}"
  }
}

run "values" {
  variables {
    number = 8
  }
  assert {
    condition     = output.value == "from-tests-dir"
    error_message = "value is ${output.value}"
  }
  assert {
    condition     = run.nulls.value == null
    error_message = "the first run's value should be null"
  }
}
