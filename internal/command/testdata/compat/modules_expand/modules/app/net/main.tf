variable "x" {}

resource "terraform_data" "g" {
  input = "${var.x}!"
}

output "y" {
  value = terraform_data.g.output
}
