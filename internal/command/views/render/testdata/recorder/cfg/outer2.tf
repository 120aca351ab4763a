resource "tp_thing" "a" {
  outer {
    inner {
      v = "1"
    }
    inner {
      v = "1b"
    }
    other {
      name = "n"
      w = "b"
    }
  }
  outer {
    inner {
      v = "2"
    }
  }
}
