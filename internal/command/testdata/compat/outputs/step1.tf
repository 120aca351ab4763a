resource "terraform_data" "o" {
  input = "o"
}
output "a" {
  value = terraform_data.o.output
}
output "removed" {
  value = 1
}
