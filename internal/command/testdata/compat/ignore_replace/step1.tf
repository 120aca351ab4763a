resource "terraform_data" "r" {
  input            = { a = 1 }
  triggers_replace = 1

  lifecycle {
    ignore_changes = [input]
  }
}
