variable "names" {
  default = ["a", "b", "c"]
}

module "one" {
  source = "./modules/app"
  input  = "hello"
}

module "many" {
  source   = "./modules/app"
  for_each = toset(var.names)
  input    = each.key
}

module "counted" {
  source = "./modules/app"
  count  = 3
  input  = "c${count.index}"
}

resource "terraform_data" "top" {
  input = [module.one.out, module.many["a"].out, module.counted[1].grand]
}

output "all" {
  value = { for k, m in module.many : k => m.out }
}
