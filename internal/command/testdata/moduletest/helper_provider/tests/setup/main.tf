terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}

resource "stratafw_thing" "a" {
  name = "helper"
}

output "name" {
  value = stratafw_thing.a.name
}
