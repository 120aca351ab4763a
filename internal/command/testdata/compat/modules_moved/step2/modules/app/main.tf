variable "x" {
  default = "v"
}

resource "terraform_data" "new" {
  input = var.x
}

moved {
  from = terraform_data.old
  to   = terraform_data.new
}

resource "terraform_data" "keep" {
  input = var.x
}
