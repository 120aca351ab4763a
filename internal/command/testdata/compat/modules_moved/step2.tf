# A module call renamed, one module instance moved to another call, and a
# moved block inside the module applying in every instance.
module "b" {
  source = "./modules/app"
}

moved {
  from = module.a
  to   = module.b
}

module "c" {
  source = "./modules/app"
  count  = 1
  x      = "c${count.index}"
}

module "d" {
  source   = "./modules/app"
  for_each = toset(["x"])
  x        = "c1"
}

moved {
  from = module.c[1]
  to   = module.d["x"]
}
