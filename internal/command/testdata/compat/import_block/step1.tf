resource "terraform_data" "unrelated" {
  input = 1
}
