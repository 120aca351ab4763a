resource "terraform_data" "a" {
  input = "hello"
}

resource "terraform_data" "b" {
  count = 2
  input = count.index
}

resource "terraform_data" "c" {
  for_each = toset(["x", "y"])
  input    = each.key
}

output "greeting" {
  value = terraform_data.a.output
}
