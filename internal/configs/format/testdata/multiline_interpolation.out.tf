locals {
  a = var.foo
  b = (var.enabled ?
  "on" : "off")
  c = (var.enabled ?
  "on" : "off")
  d = var.x # why

}
