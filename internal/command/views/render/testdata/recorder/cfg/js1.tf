resource "tp_thing" "a" {
  name = "x"
  description = "{\"a\": 1}"
  secret2 = "single"
  replace_me = "[]"
}
