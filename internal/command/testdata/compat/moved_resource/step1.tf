resource "terraform_data" "old" {
  count = 2
  input = "x${count.index}"
}
resource "terraform_data" "single" {
  input = "s"
}
