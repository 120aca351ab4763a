variable "names" {
  type    = list(string)
  default = ["a", "b"]
}

variable "settings" {
  type = object({
    size    = number
    enabled = optional(bool, true)
  })
  default = { size = 1 }
}

variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

locals {
  upper = [for n in var.names : upper(n)]
}

resource "terraform_data" "first" {
  input = {
    size    = var.settings.size
    enabled = var.settings.enabled
  }
}

resource "terraform_data" "counted" {
  count = length(var.names)
  input = "${local.upper[count.index]}-${terraform_data.first.output.size}"
}

resource "terraform_data" "each" {
  for_each         = toset(var.names)
  input            = each.key
  triggers_replace = var.settings.size
  depends_on       = [terraform_data.counted]
}

resource "terraform_data" "secret" {
  input = var.secret
}

output "counted" {
  value = terraform_data.counted[*].output
}

output "first_size" {
  value = terraform_data.first.output.size
}

output "secret" {
  value     = terraform_data.secret.output
  sensitive = true
}
