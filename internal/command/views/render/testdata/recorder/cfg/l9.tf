resource "tp_thing" "a" {
  name = "x"
  list = ["x","y","z"]
}
