variable "n" {
  default = 3
  validation {
    condition     = var.n > 0
    error_message = "positive"
  }
}
resource "terraform_data" "a" {
  count = 1
  input = var.n
  lifecycle {
    postcondition {
      condition     = self.output != null
      error_message = "has output"
    }
  }
}
data "terraform_remote_state" "none" {
  count   = 0
  backend = "local"
  config = {
    path = "nothere.tfstate"
  }
  lifecycle {
    postcondition {
      condition     = self.outputs != null
      error_message = "read"
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
    condition     = var.n == 3
    error_message = "not three"
  }
}
module "m" {
  source = "./modules/m"
}
module "none" {
  source = "./modules/m"
  count  = 0
}
