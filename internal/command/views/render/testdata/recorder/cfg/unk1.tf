resource "tp_thing" "a" {
  name = "x"
  list = ["p"]
  tags = { a = "p", b = "c" }
  lobj = [{ a = "p", b = 1 }]
  single {
    a = "p"
  }
}
