resource "terraform_data" "old" {
  input = "x"
}
