# Naming modules called in a chain and with for_each: relevant_attributes
# follow module outputs into local values and resource arguments.

module "a" {
  source = "./modules/naming"
  prefix = ["eg"]
  suffix = ["prod"]
  seed   = "a2"
}

module "b" {
  source = "./modules/naming"
  prefix = [module.a.app.name]
  seed   = module.a.seed
}

module "each" {
  source   = "./modules/naming"
  for_each = toset(["x", "y"])
  prefix   = ["e", each.key]
  seed     = each.key
}

resource "terraform_data" "root" {
  input = [module.a.db.name, module.b.kv, module.each["x"].app.slug]
}

output "names" {
  value = { for k, m in module.each : k => m.db.name_unique }
}
