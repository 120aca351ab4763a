resource "terraform_data" "a" {
  count = 1
  input = "a"
}
resource "terraform_data" "b" {
  input = "b"
}
