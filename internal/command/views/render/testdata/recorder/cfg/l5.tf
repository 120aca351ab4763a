resource "tp_thing" "a" {
  name = "x"
  list = ["c","d"]
}
