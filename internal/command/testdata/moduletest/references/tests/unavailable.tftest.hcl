provider "stratafw" {
  prefix = var.nowhere
}

run "needs_provider" {
  variables {
    name = "x"
  }
}
