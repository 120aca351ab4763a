resource "terraform_data" "a" {
  input = tomap({ a = "1", b = "2", c = "3", "d e" = "4" })
}
