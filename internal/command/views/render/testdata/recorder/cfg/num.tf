resource "terraform_data" "a" {
  input = 5
}
