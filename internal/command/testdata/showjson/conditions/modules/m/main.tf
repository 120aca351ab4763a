variable "k" {
  default = 1
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
output "k" {
  value = var.k
  precondition {
    condition     = var.k == 1
    error_message = "one"
  }
}
