resource "tp_thing" "a" {
  name        = "y"
  enabled     = false
  tags        = { a = "1", b = "3", e = "4" }
  list        = ["a", "b", "x", "d", "e"]
  set         = ["p", "r", "s"]
  secret      = "hunter3"
  replace_me  = "a"
  obj         = { a = "x", b = 2 }
  lobj        = [{ a = "x", b = 1 }, { a = "y", b = 3 }]
  description = "hello\nthere\n"
  dyn         = { k = "w" }
  nsingle     = { x = "b", y = 1 }
  nlist       = [{ x = "1" }, { x = "3", y = "b" }]
  nset        = [{ x = "s1" }, { x = "s3" }]
  nmap        = { m1 = { x = "a" }, m3 = { x = "c" } }
  single {
    a = "s"
    b = "t"
  }
  item {
    k = "k1"
  }
  item {
    k = "k2"
    v = "v3"
  }
  tag {
    k = "t1"
    v = "y"
  }
  named "n1" {
    v = "x"
  }
  named "n2" {
    v = "z"
  }
}
