module "mm" {
  source = "./mod"
}
resource "terraform_data" "n" {
  input = jsonencode({ big = 1e20, small = 0.1, prec = 1.00000000000000000001, neg = -0, i = 12345678901234567890, s = "x\ny" })
}
