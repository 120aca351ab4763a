module "a" {
  source = "./modules/app"
}

module "c" {
  source = "./modules/app"
  count  = 2
  x      = "c${count.index}"
}
