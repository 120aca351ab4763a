resource "terraform_data" "a" {
  count = 1
  input = "x0"
}
