resource "tp_thing" "a" {
  name = "x"
  single {
    a = sensitive("y")
  }
  dynamic "item" {
    for_each = sensitive(["a", "c"])
    content {
      k = item.value
    }
  }
  tag {
    k = "plain2"
  }
}
