resource "tp_thing" "a" {
  name = "x"
  list = ["a"]
  dyn = ["a"]
  lobj = [{ a = "a", b = 1 }]
  description = "a"
}
