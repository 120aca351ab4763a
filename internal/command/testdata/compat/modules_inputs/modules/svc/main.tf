variable "name" {
  type = string
}

variable "size" {
  type    = number
  default = 1
}

variable "tags" {
  type = object({
    env   = string
    owner = optional(string, "ops")
  })
}

variable "secret" {
  type      = string
  sensitive = true
  default   = "s3cr3t"
}

locals {
  full = "${var.name}-${var.tags.env}"
}

resource "terraform_data" "svc" {
  count = var.size
  input = {
    name   = "${local.full}-${count.index}"
    owner  = var.tags.owner
    secret = var.secret
    module = path.module
  }
}

output "names" {
  value = terraform_data.svc[*].input.name
}

output "secret" {
  value     = var.secret
  sensitive = true
}
