resource "tp_thing" "a" {
  name = "x"
  list = ["x", "b", "c"]
  dyn = ["x", "b", "c"]
  lobj = [{ a = "x", b = 1 }, { a = "b", b = 1 }, { a = "c", b = 1 }]
  description = "x\nb\nc"
}
