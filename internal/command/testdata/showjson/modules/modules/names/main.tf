variable "base" {
  type = string
}

locals {
  full = "${var.base}-full"
}

output "full" {
  value = local.full
}
