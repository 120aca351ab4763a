run "errors" {
  variables {
    name = "x"
  }
}
run "after_error" {
  variables {
    name = "abcd"
  }
}
