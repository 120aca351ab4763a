variable "password" {
  type      = string
  default   = "two"
  sensitive = true
}

variable "plain" {
  default = "p"
}

resource "terraform_data" "s" {
  input = { user = "admin", password = var.password, list = [var.password, "x"], m = { k = var.password } }
}

resource "terraform_data" "f" {
  input            = sensitive("fn2")
  triggers_replace = [sensitive(1), 2]
}

resource "terraform_data" "whole" {
  input = sensitive({ a = 1, b = [1, 2] })
}

output "password" {
  value     = var.password
  sensitive = true
}

output "obj" {
  value     = terraform_data.s.output
  sensitive = true
}

output "revealed" {
  value = nonsensitive(var.password)
}
