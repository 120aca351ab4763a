terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}

variable "name" {
  type = string
}

resource "stratafw_thing" "a" {
  name = var.name
}

output "id" {
  value = stratafw_thing.a.id
}
