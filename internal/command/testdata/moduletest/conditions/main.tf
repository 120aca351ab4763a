variable "size" {
  type    = number
  default = 2
}

resource "terraform_data" "sized" {
  input = var.size

  lifecycle {
    precondition {
      condition     = var.size < 10
      error_message = "size must be below 10"
    }
    postcondition {
      condition     = self.output != 7
      error_message = "size 7 is unlucky"
    }
  }
}

output "doubled" {
  value = terraform_data.sized.output * 2

  precondition {
    condition     = var.size != 5
    error_message = "size 5 is not allowed"
  }
}

check "small" {
  assert {
    condition     = var.size < 4
    error_message = "size should stay small"
  }
}
