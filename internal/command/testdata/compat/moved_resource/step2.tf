resource "terraform_data" "new" {
  count = 2
  input = "x${count.index}"
}
resource "terraform_data" "single" {
  for_each = toset(["k"])
  input    = "changed"
}
moved {
  from = terraform_data.old
  to   = terraform_data.new
}
moved {
  from = terraform_data.single
  to   = terraform_data.single["k"]
}
