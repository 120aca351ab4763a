resource "terraform_data" "base" {
  input = "two"
}
resource "terraform_data" "uses" {
  input = terraform_data.base.output
}
resource "terraform_data" "other" {
  count = 2
  input = "two"
}
output "o" {
  value = terraform_data.other[0].output
}
