resource "tp_thing" "a" {
  name = "x"
  single {
    a = "s2"
  }
  item {
    k = "k1"
  }
  item {
    k = "k2"
    v = "v3"
  }
  named "n1" {
    v = "x"
  }
}
