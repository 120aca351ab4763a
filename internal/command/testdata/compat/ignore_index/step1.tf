resource "terraform_data" "r" {
  input = { a = 1, b = 2 }

  lifecycle {
    ignore_changes = [input["a"]]
  }
}
