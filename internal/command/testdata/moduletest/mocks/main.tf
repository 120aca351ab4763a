terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}

provider "stratafw" {
  prefix = "x-"
}

provider "stratafw" {
  alias  = "real"
  prefix = "r-"
}

resource "stratafw_thing" "real" {
  provider = stratafw.real
  name     = "real"
}

resource "stratafw_thing" "a" {
  name = "one"
}

data "stratafw_echo" "e" {
  input = stratafw_thing.a.name
}

resource "terraform_data" "t" {
  input = stratafw_thing.a.id
}

output "id" {
  value = stratafw_thing.a.id
}

output "echo" {
  value = data.stratafw_echo.e.result
}

output "size" {
  value = stratafw_thing.a.size
}

output "real_id" {
  value = stratafw_thing.real.id
}
