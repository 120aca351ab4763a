variable "n" {
  default = 3
}
resource "terraform_data" "a" {
  count = 1
  input = var.n
}
