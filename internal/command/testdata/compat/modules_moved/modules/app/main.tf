variable "x" {
  default = "v"
}

resource "terraform_data" "old" {
  input = var.x
}

resource "terraform_data" "keep" {
  input = var.x
}
