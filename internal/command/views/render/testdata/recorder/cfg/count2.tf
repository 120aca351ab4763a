resource "terraform_data" "a" {
  count = 2
  input = "x${count.index}"
}
