resource "tp_thing" "a" {
  name = "x"
  list = ["a", "b", "b"]
  dyn = ["a", "b", "b"]
  lobj = [{ a = "a", b = 1 }, { a = "b", b = 1 }, { a = "b", b = 1 }]
  description = "a\nb\nb"
}
