resource "tp_thing" "a" {
  name = "x"
  single {
    a = sensitive("x")
  }
  dynamic "item" {
    for_each = sensitive(["a", "b"])
    content {
      k = item.value
    }
  }
  tag {
    k = "plain"
  }
}
