resource "tp_thing" "a" {
  name = "x"
  list = ["b", "a", "x"]
  dyn = ["b", "a", "x"]
  lobj = [{ a = "b", b = 1 }, { a = "a", b = 1 }, { a = "x", b = 1 }]
  description = "b\na\nx"
}
