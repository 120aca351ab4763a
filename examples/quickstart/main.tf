# A small configuration on strata's built-in provider: no credentials, no
# network. terraform_data stores a value and exposes it as output.

variable "environment" {
  type        = string
  default     = "dev"
  description = "Name of the environment these servers belong to."
}

variable "servers" {
  type = map(object({
    size = string
    tags = optional(list(string), [])
  }))
  default = {
    web = { size = "small", tags = ["frontend"] }
    api = { size = "medium" }
  }
}

locals {
  prefix = "${var.environment}-${substr(sha256(var.environment), 0, 6)}"
}

resource "terraform_data" "network" {
  input = {
    name = "${local.prefix}-net"
    cidr = cidrsubnet("10.0.0.0/16", 8, 1)
  }
}

resource "terraform_data" "server" {
  for_each = var.servers

  input = {
    name    = "${local.prefix}-${each.key}"
    size    = each.value.size
    tags    = each.value.tags
    network = terraform_data.network.output.name
  }
}

resource "terraform_data" "replica" {
  count = 2

  input            = "replica-${count.index}"
  triggers_replace = terraform_data.network.id

  depends_on = [terraform_data.server]
}

output "network" {
  value = terraform_data.network.output
}

output "servers" {
  value = { for k, s in terraform_data.server : k => s.output.name }
}

output "replica_ids" {
  value     = terraform_data.replica[*].id
  sensitive = true
}
