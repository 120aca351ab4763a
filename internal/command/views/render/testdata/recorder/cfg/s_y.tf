resource "terraform_data" "a" {
  input = "y"
}
