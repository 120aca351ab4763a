module "child" {
  source = "./child"
  name   = "real"
}

resource "terraform_data" "uses" {
  input = module.child.value
}

output "value" {
  value = module.child.value
}

output "other" {
  value = module.child.other
}
