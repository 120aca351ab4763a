resource "tp_thing" "a" {
  name = "x"
  lobj = [{ a = "y", b = 2 }, { a = "q", b = 3 }]
}
