variable "password" {
  default   = "one"
  sensitive = true
}
resource "terraform_data" "s" {
  input = { user = "admin", password = var.password }
}
output "password" {
  value     = var.password
  sensitive = true
}
