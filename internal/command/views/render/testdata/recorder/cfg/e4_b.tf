resource "tp_thing" "a" {
  name = "x"
  list = ["b", "c", "a"]
  dyn = ["b", "c", "a"]
  lobj = [{ a = "b", b = 1 }, { a = "c", b = 1 }, { a = "a", b = 1 }]
  description = "b\nc\na"
}
