resource "terraform_data" "r" {
  input = "x"
}
