resource "tp_thing" "a" {
  name = "x"
  list = ["x", "a", "b", "d"]
  dyn = ["x", "a", "b", "d"]
  lobj = [{ a = "x", b = 1 }, { a = "a", b = 1 }, { a = "b", b = 1 }, { a = "d", b = 1 }]
  description = "x\na\nb\nd"
}
