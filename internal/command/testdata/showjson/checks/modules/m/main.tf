variable "k" {
  default = 1
}
check "inner" {
  assert {
    condition = var.k == 1
    error_message = "x"
  }
}
