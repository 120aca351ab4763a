resource "tp_thing" "a" {
  name = "x"
  description = jsonencode({ a = 1, list = [1, 3], o = { p = "r" }, n = null })
}
