resource "tp_thing" "a" {
  name = "x"
  list = ["a", "a", "b"]
  dyn = ["a", "a", "b"]
  lobj = [{ a = "a", b = 1 }, { a = "a", b = 1 }, { a = "b", b = 1 }]
  description = "a\na\nb"
}
