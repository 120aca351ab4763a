resource "tp_thing" "a" {
  name = "x"
  description = "{\"a\":    1}"
  secret2 = "multi\nline"
  replace_me = "{}"
}
