# module.a's objects leave the state without being destroyed; module.b's
# are destroyed because its call is gone. (One object is forgotten: Terraform
# lists several in an order that changes from run to run.)
removed {
  from = module.a

  lifecycle {
    destroy = false
  }
}
