resource "terraform_data" "inner" {
  input = "in"
}
output "v" {
  value = terraform_data.inner.output
}
