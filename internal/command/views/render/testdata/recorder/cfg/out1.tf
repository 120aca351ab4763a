resource "terraform_data" "a" {
  input = "x"
}
output "s" {
  value = "str"
}
output "n" {
  value = 1.5
}
output "l" {
  value = ["a", "b"]
}
output "tl" {
  value = tolist(["a", "b"])
}
output "ts" {
  value = toset(["a", "b"])
}
output "tm" {
  value = tomap({ a = "1", "b c" = "2" })
}
output "o" {
  value = { a = "x", nested = { b = [1, 2] }, e = [], eo = {} }
}
output "sens" {
  value     = "secret"
  sensitive = true
}
output "multi" {
  value = "l1\nl2\n"
}
output "nul" {
  value = null
}
output "json" {
  value = jsonencode({ a = 1 })
}
output "long_output_name" {
  value = true
}
output "unchanged" {
  value = "same"
}
output "deleted" {
  value = "bye"
}
output "tonull" {
  value = "x"
}
