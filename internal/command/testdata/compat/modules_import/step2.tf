# Import blocks whose targets are in module instances, with a computed
# module key.
resource "terraform_data" "seed" {
  input = "seed"
}

module "m" {
  source   = "./modules/app"
  for_each = toset(["x", "y"])
}

module "one" {
  source = "./modules/app"
}

import {
  for_each = { x = "id-x", y = "id-y" }
  to       = module.m[each.key].terraform_data.r
  id       = each.value
}

import {
  to = module.one.terraform_data.r
  id = "id-one"
}
