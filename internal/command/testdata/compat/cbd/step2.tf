resource "terraform_data" "c" {
  input            = "same"
  triggers_replace = "two"
  lifecycle {
    create_before_destroy = true
  }
}
