# Inputs change: a size, a tag, and a sensitive value; the changes flow
# through locals, count and outputs.
module "web" {
  source = "./modules/svc"
  name   = "web"
  size   = 2
  tags   = { env = "staging" }
}

module "db" {
  source = "./modules/svc"
  name   = "db"
  size   = 1
  tags   = { env = "prod", owner = "dba" }
  secret = "rotated"
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
