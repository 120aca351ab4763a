resource "terraform_data" "a" {
  for_each = toset(["x", "y"])
  input = each.key
}
