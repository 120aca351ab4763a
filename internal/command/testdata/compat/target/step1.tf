resource "terraform_data" "base" {
  input = "one"
}
resource "terraform_data" "uses" {
  input = terraform_data.base.output
}
resource "terraform_data" "other" {
  count = 2
  input = "one"
}
output "o" {
  value = terraform_data.other[0].output
}
