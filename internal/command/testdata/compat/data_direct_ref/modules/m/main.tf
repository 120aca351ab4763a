variable "p" {}

data "terraform_remote_state" "s" {
  backend = "local"
  config = {
    path = var.p
  }
}

output "o" {
  value = data.terraform_remote_state.s.outputs.o
}
