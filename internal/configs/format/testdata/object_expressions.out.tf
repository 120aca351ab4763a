locals {
  obj = { "name" = "web", "port" = 8080, nested = { a = 1, bb = 2 } }
  multi = {
    "name"  = "web"
    "port"  = 8080
    enabled = true
    "list"  = [1, 2, 3]
    nested = {
      a = {
        deep = "x"
      }
      bbb = 2
    }
  }
  commas = {
    a    = 1,
    bbbb = 2,
  }
  tuple = [{ a = 1 }, { b = 2 }]
  json_like = jsonencode({
    "Version" : "2012-10-17",
    "Statement" : [{ "Effect" : "Allow", "Action" : "*" }]
  })
}
