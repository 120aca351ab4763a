resource "terraform_data" "a" {
  input = "y"
}
output "a_very_long_unchanged" {
  value = "1"
}
output "x" {
  value = "2"
}
output "sx" {
  value = "1"
}
data "tp_read" "r" {
  input = "x"
  depends_on = [terraform_data.a]
}
