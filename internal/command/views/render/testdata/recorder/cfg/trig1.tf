resource "terraform_data" "a" {
  input = "x"
  triggers_replace = "a"
}
