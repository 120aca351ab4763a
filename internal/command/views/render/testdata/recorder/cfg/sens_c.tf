resource "tp_thing" "a" {
  name = "x"
  secret = "same"
  secret2 = sensitive("plain2")
  size = 1
}
