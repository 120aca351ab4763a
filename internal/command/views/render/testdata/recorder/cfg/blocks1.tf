resource "tp_thing" "a" {
  name = "x"
  single {
    a = "s"
  }
  item {
    k = "k1"
  }
  item {
    k = "k2"
    v = "v2"
  }
  named "n1" {
    v = "x"
  }
}
