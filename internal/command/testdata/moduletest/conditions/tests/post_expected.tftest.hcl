run "post_expected" {
  variables {
    size = 7
  }
  expect_failures = [terraform_data.sized, check.small]
}
run "after" {
  command = plan
}
