# A naming-style module: a map of names built from other local values,
# an output per entry reaching into it, and the resources the names
# depend on.

variable "prefix" {
  default = []
}

variable "suffix" {
  default = []
}

variable "seed" {
  default = ""
}

resource "terraform_data" "seed" {
  count = 2
  input = "${var.seed}-${count.index}"
}

locals {
  random        = substr(md5(terraform_data.seed[0].output), 0, 4)
  prefix        = join("-", var.prefix)
  suffix        = join("-", var.suffix)
  suffix_unique = join("-", concat(var.suffix, [local.random, terraform_data.seed[1].id]))
  slugs         = ["app", "db", "kv"]
  az = { for s in local.slugs : s => {
    name        = substr(join("-", compact([local.prefix, s, local.suffix])), 0, 60)
    name_unique = substr(join("-", compact([local.prefix, s, local.suffix_unique])), 0, 60)
    slug        = s
    max_length  = 60
  } }
  validation = { for s in local.slugs : s => length(local.az[s].name) <= local.az[s].max_length }
}

resource "terraform_data" "check" {
  input = { valid = local.validation, seeds = terraform_data.seed[*].input }
}

output "app" {
  value = local.az.app
}

output "db" {
  value = local.az["db"]
}

output "kv" {
  value = local.az.kv.name_unique
}

output "valid" {
  value = local.validation
}

output "seed" {
  value = terraform_data.seed[1].input
}
