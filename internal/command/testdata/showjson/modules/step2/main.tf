# Module calls with for_each and count, a nested module inside a module
# instance, a provider configuration passed in, a module with no
# resources, and references to module outputs with and without keys.

provider "terraform" {
  alias = "x"
}

variable "names" {
  default = ["x", "z"]
}

resource "terraform_data" "root" {
  input = "root"
}

module "each" {
  source   = "./modules/leaf"
  for_each = toset(var.names)
  value    = "each-${each.key}"
  extra    = terraform_data.root.output
}

module "fixed" {
  source = "./modules/leaf"
  value  = "fixed"
}

module "counted" {
  source     = "./modules/leaf"
  count      = 2
  value      = "count2-${count.index}"
  depends_on = [module.fixed]
}

module "outer" {
  source = "./modules/outer"
  prefix = "p"
  providers = {
    terraform = terraform.x
  }
}

module "names" {
  source = "./modules/names"
  base   = terraform_data.root.output
}

resource "terraform_data" "after" {
  input            = module.each["x"].result
  triggers_replace = module.names.full
}

output "each_values" {
  value = { for k, m in module.each : k => m.result }
}

output "inner" {
  value = module.outer.inner_results
}

output "keyed" {
  value = module.counted[1].result
}

output "whole" {
  value     = module.fixed
  sensitive = true
}
