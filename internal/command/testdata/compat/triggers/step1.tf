variable "v" {
  default = "one"
}
resource "terraform_data" "source" {
  count = 2
  input = var.v
}
resource "terraform_data" "whole" {
  input = "w"
  lifecycle {
    replace_triggered_by = [terraform_data.source[0]]
  }
}
resource "terraform_data" "attr" {
  count = 2
  input = "a"
  lifecycle {
    replace_triggered_by = [terraform_data.source[count.index].input]
  }
}
resource "terraform_data" "untouched" {
  input = "u"
  lifecycle {
    replace_triggered_by = [terraform_data.whole.input]
  }
}
