variable "n" {
  default = 7
}
resource "terraform_data" "a" {
  input = var.n
  lifecycle {
    precondition {
      condition     = var.n < 5
      error_message = "n must be small."
    }
    postcondition {
      condition     = self.input == var.n
      error_message = "input must be n."
    }
  }
}
