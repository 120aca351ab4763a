resource "terraform_data" "base" {
  input = "base"
}

resource "terraform_data" "dep" {
  input = terraform_data.base.output
}

resource "terraform_data" "other" {
  count = 2
  input = "other-${count.index}"
}

resource "terraform_data" "uses_other" {
  input = terraform_data.other[0].output
}

module "m" {
  source = "./m"
}

output "dep" {
  value = terraform_data.dep.output
}

output "lone" {
  value = "lone"
}
