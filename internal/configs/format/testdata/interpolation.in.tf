locals {
  a = "${var.foo}"
  b = "${var.foo} suffix"
  c = "prefix-${var.foo}"
  d = "${var.foo}${var.bar}"
  e = "${~var.foo~}"
  f = "${ var.list[0] }"
  g = "${"literal"}"
  h = "${lookup(var.map, "key", "default")}"
  i = ["${var.foo}", "${var.bar}"]
  j = { key = "${var.foo}" }
  k = "%{if var.enabled}on%{else}off%{endif}"
  l = "${var.a ? "yes" : "no"}"
  m = "${"${var.nested}"}"
  n = "${var.foo}" # trailing comment
  o = "${var.a}" == "x"
  p = format("%s", "${var.a}")
  q = "$${not_interpolated}"
  r = "${var.count + 1}"
}

resource "null_resource" "r" {
  triggers = {
    id = "${var.id}"
  }
  name = "${var.name}"
}

output "o" {
  value = "${module.m.out}"
}
