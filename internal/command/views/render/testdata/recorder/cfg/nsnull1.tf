resource "tp_thing" "a" {
  name = "x"
  nsingle = { x = "a" }
  nlist = [{ x = "1" }, { x = "2" }]
  obj = { a = "x", b = 1 }
  tags = { a = "b" }
}
