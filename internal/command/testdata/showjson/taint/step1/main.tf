# The comparison test taints terraform_data.t and gives terraform_data.d a
# deposed object before planning this configuration again.
resource "terraform_data" "t" {
  input = "t"
}

resource "terraform_data" "d" {
  input = "d"
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "plain" {
  count = 2
  input = "p${count.index}"
}

output "t" {
  value = terraform_data.t.output
}
