resource "tp_thing" "a" {
  name = "x"
  item {
    k = "k1"
  }
  item {
    k = "k2"
    v = "v2"
  }
  item {
    k = "k3"
  }
  tag {
    k = "t"
  }
  named "n1" {
    v = "x"
  }
}
