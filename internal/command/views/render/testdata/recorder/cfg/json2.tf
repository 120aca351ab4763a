resource "terraform_data" "a" {
  input = jsonencode({ a = 2, b = ["x", "z"], c = { d = true } })
}
