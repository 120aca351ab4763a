resource "tp_thing" "a" {
  name = "x"
  list = ["a", "b", "x", "y", "e", "f"]
  dyn = ["a", "b", "x", "y", "e", "f"]
  lobj = [{ a = "a", b = 1 }, { a = "b", b = 1 }, { a = "x", b = 1 }, { a = "y", b = 1 }, { a = "e", b = 1 }, { a = "f", b = 1 }]
  description = "a\nb\nx\ny\ne\nf"
}
