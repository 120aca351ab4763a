resource "tp_thing" "a" {
  name = "x"
  lobj = [{ a = "x", b = 1 }, { a = "y", b = 2 }, { a = "z", b = 3 }]
}
