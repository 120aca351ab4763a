module "a" {
  source = "./modules/app"
}

module "b" {
  source = "./modules/app"
  count  = 2
}
