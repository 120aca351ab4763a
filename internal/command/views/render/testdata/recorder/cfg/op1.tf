resource "terraform_data" "a" {
  input = "x"
}
output "a_very_long_unchanged" {
  value = "1"
}
output "x" {
  value = "1"
}
output "sx" {
  value = "1"
  sensitive = true
}
