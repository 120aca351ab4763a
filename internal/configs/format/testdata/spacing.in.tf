locals {
  sum   =   1+2*3
  call = max( 1 ,2,  3 )
  idx = var.list [ 0 ]
  splat = var.list[*].id
  cond = var.a?1:2
  neg = - 1
  not = ! var.b
  cmp = var.a>=1&&var.b!=2
  range = [for i,v in var.list: v if v!=null]
  objfor = {for k,v in var.map: k=>v...}
  attr = var.obj . field
  tpl = "a ${ var.x } b"
}
