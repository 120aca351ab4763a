resource "tp_thing" "a" {
  name = "x"
  size = 5
  secret = "s"
}
