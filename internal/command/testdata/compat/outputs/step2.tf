resource "terraform_data" "o" {
  input = "o"
}
output "a" {
  value = terraform_data.o.output
}
output "new_output_with_long_name" {
  value = { x = [1, 2] }
}
