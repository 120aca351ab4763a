resource "tp_thing" "a" {
  name = "x"
  list = ["a", "c", "b", "d", "e"]
  dyn = ["a", "c", "b", "d", "e"]
  lobj = [{ a = "a", b = 1 }, { a = "c", b = 1 }, { a = "b", b = 1 }, { a = "d", b = 1 }, { a = "e", b = 1 }]
  description = "a\nc\nb\nd\ne"
}
