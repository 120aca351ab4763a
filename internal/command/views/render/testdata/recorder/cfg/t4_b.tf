resource "tp_thing" "a" {
  name = "x"
  list = ["b", "a"]
  dyn = ["b", "a"]
  lobj = [{ a = "b", b = 1 }, { a = "a", b = 1 }]
  description = "b\na"
}
