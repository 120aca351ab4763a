resource "tp_thing" "a" {
  name = "x"
  list = ["c", "b", "x"]
  dyn = ["c", "b", "x"]
  lobj = [{ a = "c", b = 1 }, { a = "b", b = 1 }, { a = "x", b = 1 }]
  description = "c\nb\nx"
}
