# Each output changes only in a way its JSON rendering does not show: the
# plan updates them, but Terraform says "No changes.".
output "list" {
  value = [1, 2]
}
output "object" {
  value = { a = 1 }
}
output "third" {
  value = 1 / 3
}
