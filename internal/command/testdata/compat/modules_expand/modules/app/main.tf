variable "input" {
  type = string
}

resource "terraform_data" "r" {
  input = upper(var.input)
}

module "grand" {
  source = "./net"
  x      = terraform_data.r.output
}

output "out" {
  value = terraform_data.r.output
}

output "grand" {
  value = module.grand.y
}
