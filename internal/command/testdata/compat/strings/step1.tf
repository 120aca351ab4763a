resource "terraform_data" "s" {
  input = {
    multi = "line one\nline two\nline three\n"
    json  = jsonencode({ a = 1, b = [1, 2] })
    empty = ""
  }
}
