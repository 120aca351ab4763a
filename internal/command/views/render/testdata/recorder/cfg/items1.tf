resource "tp_thing" "a" {
  name = "x"
  list = ["a", "b", "c"]
  item {
    k = "k1"
  }
  item {
    k = "k2"
  }
}
