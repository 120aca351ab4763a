# Planned from an empty state: every instance is created, many values are
# unknown until apply.
variable "names" {
  type        = list(string)
  default     = ["a", "b"]
  description = "Instance names."
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

variable "unset" {
  type    = string
  default = null
}

locals {
  upper = [for n in var.names : upper(n)]
}

provider "terraform" {
  alias = "other"
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
  provider = terraform.other
  input    = { user = "admin", password = var.secret, list = [var.secret, "x"] }
}

resource "terraform_data" "constant" {
  count            = 2
  input            = [1, "two", true, null, { k = "v" }]
  triggers_replace = null
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

output "constant" {
  value       = { list = [1, 2], name = "c", partly = [terraform_data.first.id, "known"] }
  description = "Known and unknown parts."
}
