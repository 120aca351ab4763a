resource "tp_thing" "a" {
  name = "x"
  list = ["a", "x", "c", "y"]
  dyn = ["a", "x", "c", "y"]
  lobj = [{ a = "a", b = 1 }, { a = "x", b = 1 }, { a = "c", b = 1 }, { a = "y", b = 1 }]
  description = "a\nx\nc\ny"
}
