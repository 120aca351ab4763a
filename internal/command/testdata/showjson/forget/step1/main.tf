resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "b" {
  count = 2
  input = count.index
}
resource "terraform_data" "kept" {
  input = "k"
}
