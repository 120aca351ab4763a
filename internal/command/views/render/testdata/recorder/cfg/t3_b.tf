resource "tp_thing" "a" {
  name = "x"
  list = ["b", "c", "d"]
  dyn = ["b", "c", "d"]
  lobj = [{ a = "b", b = 1 }, { a = "c", b = 1 }, { a = "d", b = 1 }]
  description = "b\nc\nd"
}
