variable "s" {
  default = "v"
  sensitive = false
}
resource "tp_thing" "a" {
  name = "x"
  secret = "same"
  secret2 = "plain"
  size = 1
}
