resource "tp_thing" "a" {
  name        = "x"
  size        = 3
  enabled     = true
  tags        = { a = "1", b = "2", "c d" = "3" }
  list        = ["a", "b", "c", "d", "e"]
  set         = ["p", "q", "r"]
  secret      = "hunter2"
  replace_me  = "a"
  obj         = { a = "x", b = 1 }
  lobj        = [{ a = "x", b = 1 }, { a = "y", b = 2 }]
  description = "hello\nworld\n"
  dyn         = { k = "v" }
  nsingle     = { x = "a", y = 1 }
  nlist       = [{ x = "1" }, { x = "2", y = "b" }]
  nset        = [{ x = "s1" }, { x = "s2" }]
  nmap        = { m1 = { x = "a" }, m2 = { x = "b" } }
  single {
    a = "s"
    b = "t"
  }
  item {
    k = "k1"
  }
  item {
    k = "k2"
    v = "v2"
  }
  tag {
    k = "t1"
    v = "x"
  }
  named "n1" {
    v = "x"
  }
  named "n2" {
    v = "y"
  }
}
