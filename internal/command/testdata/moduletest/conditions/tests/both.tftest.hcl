run "both" {
  command = plan
  variables {
    size = 12
  }
  expect_failures = [terraform_data.sized, check.small]
}
run "after" {
  command = plan
}
