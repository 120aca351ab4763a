variable "input" {
  type = string
}

resource "terraform_data" "r" {
  input = var.input
}

output "out" {
  value = terraform_data.r.output
}
