resource "terraform_data" "r" {
  input            = { a = 1, b = ["x", "y"] }
  triggers_replace = { version = 2, tags = ["t1", "t2"] }
}
