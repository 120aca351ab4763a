resource "tp_thing" "a" {
  name = "x"
  list = ["b", "a", "c", "d"]
  dyn = ["b", "a", "c", "d"]
  lobj = [{ a = "b", b = 1 }, { a = "a", b = 1 }, { a = "c", b = 1 }, { a = "d", b = 1 }]
  description = "b\na\nc\nd"
}
