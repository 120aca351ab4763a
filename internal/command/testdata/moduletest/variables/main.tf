variable "input" {
  type    = string
  default = "default"
}

variable "secret" {
  type      = string
  ephemeral = true
}

variable "number" {
  type    = number
  default = 1
}

# Null while number is small: the state keeps no null output, but the
# assertions can still refer to it.
output "value" {
  value = var.number > 5 ? var.input : null
}

locals {
  doubled = var.number * 2
}
