resource "tp_thing" "a" {
  name = "x"
  list = ["x", "a", "b", "c"]
  dyn = ["x", "a", "b", "c"]
  lobj = [{ a = "2", b = 2 }, { a = "1", b = 1 }]
  description = "b\nc\nd"
}
