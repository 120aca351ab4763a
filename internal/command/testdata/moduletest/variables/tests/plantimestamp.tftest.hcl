variables {
  secret = "s"
}

# terraform test has no plantimestamp in variables blocks.
run "plantimestamp" {
  command = plan
  variables {
    input = plantimestamp()
  }
}
