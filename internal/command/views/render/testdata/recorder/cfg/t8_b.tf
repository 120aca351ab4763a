resource "tp_thing" "a" {
  name = "x"
  list = ["c"]
  dyn = ["c"]
  lobj = [{ a = "c", b = 1 }]
  description = "c"
}
