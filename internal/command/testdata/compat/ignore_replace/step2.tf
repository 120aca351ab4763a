resource "terraform_data" "r" {
  input            = { a = 2 }
  triggers_replace = 2

  lifecycle {
    ignore_changes = [input]
  }
}
