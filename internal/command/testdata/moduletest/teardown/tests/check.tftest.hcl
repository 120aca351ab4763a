variables {
  input = "x"
}

run "applies_despite_check" {}
