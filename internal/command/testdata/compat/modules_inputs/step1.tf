module "web" {
  source = "./modules/svc"
  name   = "web"
  tags   = { env = "prod" }
}

module "db" {
  source = "./modules/svc"
  name   = "db"
  size   = 2
  tags   = { env = "prod", owner = "dba" }
}

resource "terraform_data" "index" {
  input = concat(module.web.names, module.db.names)
}

output "names" {
  value = resource.terraform_data.index.output
}

output "db_secret" {
  value     = module.db.secret
  sensitive = true
}
