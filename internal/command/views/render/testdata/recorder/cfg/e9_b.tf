resource "tp_thing" "a" {
  name = "x"
  list = ["x", "a", "b", "c", "d", "e"]
  dyn = ["x", "a", "b", "c", "d", "e"]
  lobj = [{ a = "x", b = 1 }, { a = "a", b = 1 }, { a = "b", b = 1 }, { a = "c", b = 1 }, { a = "d", b = 1 }, { a = "e", b = 1 }]
  description = "x\na\nb\nc\nd\ne"
}
