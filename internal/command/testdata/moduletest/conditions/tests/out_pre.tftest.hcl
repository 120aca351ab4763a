run "out_pre" {
  command = plan
  variables {
    size = 5
  }
  expect_failures = [output.doubled, check.small]
}
run "after" {
  command = plan
}
