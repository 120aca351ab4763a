variable "prefix" {
  type = string
}

module "inner" {
  source   = "../leaf"
  for_each = { a = 1, b = 2 }
  value    = "${var.prefix}-${each.key}"
}

module "deep" {
  source = "./deep"
  n      = 10
}

output "inner_results" {
  value = [for k, m in module.inner : m.result]
}
