resource "terraform_data" "a" {
  for_each = toset(["x"])
  input = each.key
}
