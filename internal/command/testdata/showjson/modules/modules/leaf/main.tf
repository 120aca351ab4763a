variable "value" {
  type        = string
  description = "The value."
}

variable "extra" {
  default = "none"
}

variable "secret" {
  default   = "hush"
  sensitive = true
}

resource "terraform_data" "r" {
  input = var.value
}

resource "terraform_data" "copy" {
  count            = 2
  input            = "${terraform_data.r.output}-${count.index}-${var.extra}"
  triggers_replace = var.secret
  depends_on       = [terraform_data.r]
}

output "result" {
  value       = terraform_data.r.output
  description = "What r made."
}
