resource "tp_thing" "a" {
  name = "x"
  list = ["x", "a"]
  dyn = ["x", "a"]
  lobj = [{ a = "x", b = 1 }, { a = "a", b = 1 }]
  description = "x\na"
}
