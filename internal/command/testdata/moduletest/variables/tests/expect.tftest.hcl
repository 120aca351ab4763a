variables {
  secret = "s"
}

# A local value is not checkable: terraform test refuses it.
run "expect_local" {
  command         = plan
  expect_failures = [local.doubled]
}
