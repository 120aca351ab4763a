resource "terraform_data" "s" {
  input = {
    multi = "line one\nline 2\nline three\n"
    json  = jsonencode({ a = 2, b = [1, 2], c = "new" })
    empty = "now set"
  }
}
