resource "tp_thing" "a" {
  name = "x"
  list = ["a","x","c"]
}
