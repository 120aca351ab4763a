resource "terraform_data" "a" {
  input = jsonencode({ a = 1, b = ["x", "y"], c = { d = true } })
}
