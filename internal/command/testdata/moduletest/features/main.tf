variable "name" {
  type = string
  validation {
    condition     = length(var.name) > 2
    error_message = "name too short"
  }
}
variable "n" {
  type    = number
  default = 1
}
resource "terraform_data" "r" {
  count = var.n
  input = "${var.name}-${count.index}"
}
locals {
  upper = upper(var.name)
}
output "names" {
  value = terraform_data.r[*].output
}
output "upper" {
  value = local.upper
}
