resource "tp_thing" "a" {
  name = "x"
  list = ["a", "b", "c", "d"]
  dyn = ["a", "b", "c", "d"]
  lobj = [{ a = "a", b = 1 }, { a = "b", b = 1 }, { a = "c", b = 1 }, { a = "d", b = 1 }]
  description = "a\nb\nc\nd"
}
