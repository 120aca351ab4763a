resource "tp_thing" "a" {
  name = "x"
  list = ["a", "b", "a"]
  dyn = ["a", "b", "a"]
  lobj = [{ a = "a", b = 1 }, { a = "b", b = 1 }, { a = "a", b = 1 }]
  description = "a\nb\na"
}
