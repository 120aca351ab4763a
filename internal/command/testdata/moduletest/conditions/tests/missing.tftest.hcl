run "missing" {
  command = plan
  expect_failures = [terraform_data.sized]
}
run "after" {
  command = plan
}
