resource "tp_thing" "a" {
  name = "x"
  list = ["a", "x", "y", "d"]
  dyn = ["a", "x", "y", "d"]
  lobj = [{ a = "a", b = 1 }, { a = "x", b = 1 }, { a = "y", b = 1 }, { a = "d", b = 1 }]
  description = "a\nx\ny\nd"
}
