variable "input" {
  type = string
}

resource "terraform_data" "r" {
  input = var.input
}

# Fails whenever applied: an apply run still applies, then errors.
check "fails" {
  assert {
    condition     = terraform_data.r.output != var.input
    error_message = "this check always fails"
  }
}

output "out" {
  value = terraform_data.r.output
}
