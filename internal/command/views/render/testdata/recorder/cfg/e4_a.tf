resource "tp_thing" "a" {
  name = "x"
  list = ["a", "b", "c"]
  dyn = ["a", "b", "c"]
  lobj = [{ a = "a", b = 1 }, { a = "b", b = 1 }, { a = "c", b = 1 }]
  description = "a\nb\nc"
}
