resource "tp_thing" "a" {
  name = "x"
  list = ["b", "c", "x"]
  dyn = ["b", "c", "x"]
  lobj = [{ a = "b", b = 1 }, { a = "c", b = 1 }, { a = "x", b = 1 }]
  description = "b\nc\nx"
}
