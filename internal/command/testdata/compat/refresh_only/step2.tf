resource "terraform_data" "a" {
  input = "changed but ignored"
}
output "o" {
  value = terraform_data.a.output
}
output "n" {
  value = 2
}
