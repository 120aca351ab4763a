variables {
  list = [1]
  secret = "s"
}

run "ephemeral" {
  variables {
    secret = "x"
  }
  assert {
    condition     = var.secret == "y"
    error_message = "secret is ${var.secret}"
  }
}

run "rendering" {
  assert {
    condition     = length(var.list) == 2
    error_message = "list has one element"
  }
}

run "main_dir_values" {
  assert {
    condition     = var.input == "default"
    error_message = "input is ${var.input}"
  }
}
