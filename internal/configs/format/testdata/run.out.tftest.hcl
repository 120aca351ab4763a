variables {
  name  = "test"
  count = 1
}

run "setup" {
  command = plan
  variables {
    name   = "x"
    region = "us"
  }
  assert {
    condition     = aws_instance.web.ami == "${var.ami}"
    error_message = "wrong ami"
  }
}
