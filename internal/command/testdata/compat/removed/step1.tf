resource "terraform_data" "b" {
  input = "y"
}
resource "terraform_data" "c" {
  input = "z"
}
