resource "tp_thing" "a" {
  name = "x"
}
data "tp_read" "r" {
  input = tp_thing.a.computed_val
}
output "o" {
  value = data.tp_read.r.output
}
