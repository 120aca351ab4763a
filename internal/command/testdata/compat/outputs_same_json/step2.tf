output "list" {
  value = tolist([1, 2])
}
output "object" {
  value = tomap({ a = 1 })
}
output "third" {
  value = 1 / 3
}
