run "plan_check" {
  command = plan
  variables {
    size = 6
  }
}
run "after" {
  command = plan
}
