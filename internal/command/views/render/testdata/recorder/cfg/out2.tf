resource "terraform_data" "a" {
  input = "y"
}
output "s" {
  value = "str2"
}
output "n" {
  value = 2
}
output "l" {
  value = ["a", "c"]
}
output "tl" {
  value = tolist(["a", "b", "c"])
}
output "ts" {
  value = toset(["a", "c"])
}
output "tm" {
  value = tomap({ a = "1", "b c" = "3" })
}
output "o" {
  value = { a = "y", nested = { b = [1, 3] }, e = [], eo = {} }
}
output "sens" {
  value     = "secret2"
  sensitive = true
}
output "multi" {
  value = "l1\nl3\n"
}
output "nul" {
  value = "now"
}
output "json" {
  value = jsonencode({ a = 2 })
}
output "long_output_name" {
  value = false
}
output "unchanged" {
  value = "same"
}
output "unknown" {
  value = terraform_data.a.output
}
output "new" {
  value = { k = "v" }
}
output "tonull" {
  value = null
}
