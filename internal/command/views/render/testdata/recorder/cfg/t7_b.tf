resource "tp_thing" "a" {
  name = "x"
  list = ["b", "c"]
  dyn = ["b", "c"]
  lobj = [{ a = "b", b = 1 }, { a = "c", b = 1 }]
  description = "b\nc"
}
