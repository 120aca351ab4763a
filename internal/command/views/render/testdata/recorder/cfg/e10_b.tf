resource "tp_thing" "a" {
  name = "x"
  list = ["a", "x", "b", "c", "d"]
  dyn = ["a", "x", "b", "c", "d"]
  lobj = [{ a = "a", b = 1 }, { a = "x", b = 1 }, { a = "b", b = 1 }, { a = "c", b = 1 }, { a = "d", b = 1 }]
  description = "a\nx\nb\nc\nd"
}
