resource "terraform_data" "x" {}
resource "terraform_data" "y" {
  input = "set"
}
import {
  to = terraform_data.x
  id = "abc"
}
import {
  to = terraform_data.y
  id = "def"
}

resource "terraform_data" "unrelated" {
  input = 1
}
