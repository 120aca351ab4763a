# Data sources whose own arguments refer to a managed resource with a
# pending change are read during apply, even when the values they refer to
# are known; references through a local or a module variable are not.
resource "terraform_data" "a" {
  input = "2"
}

resource "terraform_data" "c" {
  count = 2
  input = "c"
}

locals {
  p = "${substr(terraform_data.a.input, 0, 0)}modules/other.tfstate"
}

data "terraform_remote_state" "direct" {
  backend = "local"
  config = {
    path = "${substr(terraform_data.a.input, 0, 0)}modules/other.tfstate"
  }
}

data "terraform_remote_state" "via_local" {
  backend = "local"
  config = {
    path = local.p
  }
}

data "terraform_remote_state" "shrinking" {
  backend = "local"
  config = {
    path = "${substr(terraform_data.c[0].input, 0, 0)}modules/other.tfstate"
  }
}

module "m" {
  source = "./modules/m"
  p      = local.p
}

output "o" {
  value = [data.terraform_remote_state.direct.outputs.o, data.terraform_remote_state.via_local.outputs.o, data.terraform_remote_state.shrinking.outputs.o, module.m.o]
}
