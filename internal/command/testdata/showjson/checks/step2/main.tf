variable "n" {
  default = 3
  validation {
    condition     = var.n > 0
    error_message = "positive"
  }
}
resource "terraform_data" "a" {
  count = 2
  input = var.n
  lifecycle {
    precondition {
      condition     = var.n < 10
      error_message = "small"
    }
    postcondition {
      condition     = self.output != null
      error_message = "has output"
    }
  }
}
output "o" {
  value = terraform_data.a[0].output
  precondition {
    condition     = var.n == 3
    error_message = "three"
  }
}
check "c" {
  assert {
    condition     = var.n == 4
    error_message = "not four"
  }
}
module "m" {
  source = "./modules/m"
  count = 2
}
