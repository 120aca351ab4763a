variable "on" {
  type    = bool
  default = true
}

resource "terraform_data" "a" {
  input = "a"
  lifecycle {
    enabled = var.on
  }
}

data "terraform_remote_state" "s" {
  backend = "local"
  config = {
    path = "nope.tfstate"
  }
  defaults = {
    x = 1
  }
  lifecycle {
    enabled = false
  }
}

module "m" {
  source = "./m"
  lifecycle {
    enabled = var.on
  }
}

output "a" {
  value = terraform_data.a != null ? terraform_data.a.output : "disabled"
}

output "m" {
  value = try(module.m.v, "disabled")
}

output "s" {
  value = data.terraform_remote_state.s == null
}
