run "expected_check" {
  variables {
    size = 6
  }
  expect_failures = [check.small]
}
run "after" {
  command = plan
}
