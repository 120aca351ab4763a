resource "terraform_data" "b" {
  input = "from b_override.tf"
}
