locals {
  l = terraform_data.b.input
}

resource "terraform_data" "a" {
  input = "a1"
}

resource "terraform_data" "b" {
  input = terraform_data.a.input
}

resource "terraform_data" "c" {
  input = { x = local.l }
}

resource "terraform_data" "d" {
  input = "d"
}

resource "terraform_data" "e" {
  input = terraform_data.d.output
}

resource "terraform_data" "m" {
  input = "m"
}

resource "terraform_data" "s" {
  input            = terraform_data.m.input
  triggers_replace = terraform_data.d.id
}

resource "terraform_data" "t" {
  input            = terraform_data.s
  triggers_replace = "v1"
}

resource "terraform_data" "many" {
  count = 11
  input = count.index
}

resource "terraform_data" "uses_many" {
  input            = terraform_data.many[3].output
  triggers_replace = "v1"
}

output "o_noop" {
  value = terraform_data.d.id
}

output "o_changed" {
  value = terraform_data.c.input.x
}

output "splat" {
  value = terraform_data.many[*].id
}
