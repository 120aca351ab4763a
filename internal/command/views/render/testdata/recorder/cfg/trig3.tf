resource "terraform_data" "a" {
  input = "x"
  triggers_replace = ["b", "c"]
  lifecycle {
    create_before_destroy = true
  }
}
