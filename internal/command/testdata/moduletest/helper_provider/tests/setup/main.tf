terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}

resource "stratafw_thing" "a" {
  name = "helper"
}

# A helper may wrap the module under test: init does not take that for a
# module calling itself.
module "wrapped" {
  source = "../.."
  name   = stratafw_thing.a.name
}

output "name" {
  value = stratafw_thing.a.name
}

output "wrapped" {
  value = module.wrapped.greeting
}
