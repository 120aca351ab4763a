resource "tp_thing" "a" {
  name = "x"
  list = ["a", "b", "c", "d"]
  dyn = ["a", "b", "c", "d"]
  lobj = [{ a = "1", b = 1 }, { a = "2", b = 2 }]
  description = "a\nb\nc"
}
