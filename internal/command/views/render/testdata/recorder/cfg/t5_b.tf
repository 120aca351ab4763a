resource "tp_thing" "a" {
  name = "x"
  list = ["c", "a", "b"]
  dyn = ["c", "a", "b"]
  lobj = [{ a = "c", b = 1 }, { a = "a", b = 1 }, { a = "b", b = 1 }]
  description = "c\na\nb"
}
