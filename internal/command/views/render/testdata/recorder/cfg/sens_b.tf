variable "s" {
  default = "v"
  sensitive = true
}
resource "tp_thing" "a" {
  name = "x"
  secret = "same"
  secret2 = sensitive("plain")
  size = 2
}
