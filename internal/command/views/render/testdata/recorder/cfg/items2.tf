resource "tp_thing" "a" {
  name = "x"
  list = ["b", "c", "d", "e"]
  item {
    k = "k2"
  }
}
