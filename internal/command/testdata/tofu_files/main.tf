# Shadowed by main.tofu: OpenTofu and strata do not read this file.
resource "terraform_data" "a" {
  input = "from main.tf"
}
