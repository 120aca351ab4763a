resource "a" "b" {
  x = 1
  y = [1, 2
}

locals {
  z = 
}
