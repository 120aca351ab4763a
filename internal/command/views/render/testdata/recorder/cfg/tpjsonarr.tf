resource "tp_thing" "a" {
  name = "x"
  description = jsonencode([1, "a"])
}
