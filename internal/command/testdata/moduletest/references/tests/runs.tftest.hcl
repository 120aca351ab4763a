run "setup" {
  variables {
    name = "setup"
  }
}

run "bad" {
  variables {
    name  = run.later.id
    other = run.madeup.id
    third = var.nowhere
  }
}

run "later" {
  variables {
    name = "later"
  }
}
