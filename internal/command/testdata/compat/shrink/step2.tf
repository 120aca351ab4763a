resource "terraform_data" "c" {
  count = 1
  input = "changed${count.index}"
}
resource "terraform_data" "e" {
  for_each = toset(["a", "d"])
  input    = each.key
}
