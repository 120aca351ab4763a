resource "tp_thing" "a" {
  outer {
    inner {
      v = "1"
    }
    other {
      name = "n"
      w = "a"
    }
  }
  outer {
    inner {
      v = "2"
    }
  }
}
