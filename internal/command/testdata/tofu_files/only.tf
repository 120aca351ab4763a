resource "terraform_data" "b" {
  input = "from only.tf"
}
