removed {
  from = terraform_data.a
  lifecycle {
    destroy = false
  }
}
removed {
  from = terraform_data.b
  lifecycle {
    destroy = false
  }
}
resource "terraform_data" "kept" {
  input = "k"
}
