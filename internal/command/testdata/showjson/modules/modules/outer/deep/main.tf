variable "n" {
  type = number
}

resource "terraform_data" "d" {
  count = var.n > 5 ? 11 : 1
  input = count.index
}
