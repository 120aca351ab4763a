resource "terraform_data" "m" {
  input = "x"
}
