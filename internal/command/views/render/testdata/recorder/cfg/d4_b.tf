resource "tp_thing" "a" {
  name = "x"
  list = ["c", "d", "a", "b"]
  dyn = ["c", "d", "a", "b"]
  lobj = [{ a = "c", b = 1 }, { a = "d", b = 1 }, { a = "a", b = 1 }, { a = "b", b = 1 }]
  description = "c\nd\na\nb"
}
