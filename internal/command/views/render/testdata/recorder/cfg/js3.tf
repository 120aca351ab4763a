resource "tp_thing" "a" {
  name = "x"
  description = "not json"
  secret2 = "{\"x\": [1]}"
  replace_me = "a\nb"
}
