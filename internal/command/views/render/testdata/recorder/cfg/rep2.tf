resource "tp_thing" "a" {
  name       = "x"
  replace_me = "b"
  tags       = { a = "2" }
  single {
    a = "t"
  }
}
