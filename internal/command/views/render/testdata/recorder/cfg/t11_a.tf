resource "tp_thing" "a" {
  name = "x"
  list = ["a", "b", "c", "d", "e", "f"]
  dyn = ["a", "b", "c", "d", "e", "f"]
  lobj = [{ a = "a", b = 1 }, { a = "b", b = 1 }, { a = "c", b = 1 }, { a = "d", b = 1 }, { a = "e", b = 1 }, { a = "f", b = 1 }]
  description = "a\nb\nc\nd\ne\nf"
}
