resource "a" "b" {
  x         = var.x
  long_name = 1
}
