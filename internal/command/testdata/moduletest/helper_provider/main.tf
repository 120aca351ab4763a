# The module under test needs no provider: only the helper module that a
# run loads does, and init installs it from the test files.
variable "name" {
  type = string
}

output "greeting" {
  value = "hello ${var.name}"
}
