resource "terraform_data" "keep" {
  input = "k"
}
resource "terraform_data" "gone" {
  input = terraform_data.keep.output
}
resource "terraform_data" "gone_count" {
  count = 2
  input = count.index
}
