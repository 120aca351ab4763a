output "after" {
  value = 1
}
