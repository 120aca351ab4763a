resource "terraform_data" "r" {
  input            = { a = 1, b = ["x", "y"] }
  triggers_replace = { version = 1, tags = ["t1"] }
}
