# One for_each key and one count index go, module.one is removed, and a
# new instance appears: deletes name the module instance that is gone.
variable "names" {
  default = ["a", "c", "d"]
}

module "many" {
  source   = "./modules/app"
  for_each = toset(var.names)
  input    = each.key
}

module "counted" {
  source = "./modules/app"
  count  = 2
  input  = "c${count.index}"
}

resource "terraform_data" "top" {
  input = [module.many["a"].out, module.counted[1].grand]
}

output "all" {
  value = { for k, m in module.many : k => m.out }
}
