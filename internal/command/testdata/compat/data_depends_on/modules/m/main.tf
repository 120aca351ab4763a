data "terraform_remote_state" "s" {
  backend = "local"
  config = {
    path = "${path.root}/modules/other.tfstate"
  }
}

output "o" {
  value = data.terraform_remote_state.s.outputs.o
}
