variables {
  secret = "s"
}

run "missing" {
  variables {
    input = var.missing
  }
}

run "after" {}
