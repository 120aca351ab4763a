run "create" {
  variables {
    name = "kept"
  }
}
