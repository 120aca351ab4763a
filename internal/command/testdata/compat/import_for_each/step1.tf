resource "terraform_data" "b" {
  input = 1
}
