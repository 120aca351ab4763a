# Invalid: var.missing is not declared.
resource "terraform_data" "r" {
  input = var.missing
}
