resource "terraform_data" "c" {
  input            = "same"
  triggers_replace = "one"
  lifecycle {
    create_before_destroy = true
  }
}
