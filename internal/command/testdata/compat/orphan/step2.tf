resource "terraform_data" "keep" {
  input = "k"
}
