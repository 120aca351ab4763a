resource "terraform_data" "a" {
  input = tomap({ a = "1", b = "3", c = "3", f = "5" })
}
