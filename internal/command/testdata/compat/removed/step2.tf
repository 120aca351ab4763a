resource "terraform_data" "b" {
  input = "y"
}
removed {
  from = terraform_data.c
  lifecycle {
    destroy = false
  }
}
