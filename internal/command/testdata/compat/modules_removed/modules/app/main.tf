resource "terraform_data" "r" {
  input = "kept"
}
