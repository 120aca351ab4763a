run "only_res" {
  command = plan
  variables {
    size = 12
  }
  expect_failures = [terraform_data.sized]
}
run "after" {
  command = plan
}
