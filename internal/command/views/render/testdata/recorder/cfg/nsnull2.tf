resource "tp_thing" "a" {
  name = "x"
  nlist = [{ x = "2" }]
}
