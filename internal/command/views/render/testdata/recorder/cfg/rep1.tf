resource "tp_thing" "a" {
  name       = "x"
  replace_me = "a"
  tags       = { a = "1" }
  single {
    a = "s"
  }
}
