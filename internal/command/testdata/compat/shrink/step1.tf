resource "terraform_data" "c" {
  count = 3
  input = "c${count.index}"
}
resource "terraform_data" "e" {
  for_each = toset(["a", "b", "c"])
  input    = each.key
}
