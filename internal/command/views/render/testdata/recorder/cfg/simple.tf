resource "tp_thing" "a" {
  name = "x"
}
