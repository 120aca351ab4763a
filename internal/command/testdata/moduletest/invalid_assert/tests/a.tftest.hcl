run "constant" {
  assert {
    condition     = true
    error_message = "never"
  }
}
