variable "prefix" { default = "pre" }
resource "terraform_data" "s" { input = var.prefix }
output "prefix" { value = terraform_data.s.output }
