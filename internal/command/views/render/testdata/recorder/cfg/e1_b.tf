resource "tp_thing" "a" {
  name = "x"
  list = ["b", "c", "d", "x"]
  dyn = ["b", "c", "d", "x"]
  lobj = [{ a = "b", b = 1 }, { a = "c", b = 1 }, { a = "d", b = 1 }, { a = "x", b = 1 }]
  description = "b\nc\nd\nx"
}
