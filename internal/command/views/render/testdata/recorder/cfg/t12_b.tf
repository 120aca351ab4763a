resource "tp_thing" "a" {
  name = "x"
  list = ["a", "b", "x", "y", "z"]
  dyn = ["a", "b", "x", "y", "z"]
  lobj = [{ a = "a", b = 1 }, { a = "b", b = 1 }, { a = "x", b = 1 }, { a = "y", b = 1 }, { a = "z", b = 1 }]
  description = "a\nb\nx\ny\nz"
}
