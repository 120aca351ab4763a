terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}

variable "input" {
  type = string
}

# Only a data source: its state has nothing to destroy.
data "stratafw_echo" "e" {
  input = var.input
}

output "echo" {
  value = data.stratafw_echo.e.result
}
