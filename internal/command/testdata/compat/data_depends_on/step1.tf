resource "terraform_data" "a" {
  input = "1"
}

data "terraform_remote_state" "d" {
  backend = "local"
  config = {
    path = "modules/other.tfstate"
  }
  depends_on = [terraform_data.a]
}

module "m" {
  source     = "./modules/m"
  depends_on = [terraform_data.a]
}

resource "terraform_data" "b" {
  input = [data.terraform_remote_state.d.outputs.o, module.m.o]
}
