resource "tp_thing" "a" {
  name = "x"
  list = ["d", "a", "b", "c"]
  dyn = ["d", "a", "b", "c"]
  lobj = [{ a = "d", b = 1 }, { a = "a", b = 1 }, { a = "b", b = 1 }, { a = "c", b = 1 }]
  description = "d\na\nb\nc"
}
