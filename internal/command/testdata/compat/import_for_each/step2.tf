locals {
  things = { x = "id-x", y = "id-y" }
}

import {
  for_each = local.things
  to       = terraform_data.a[each.key]
  id       = each.value
}

import {
  for_each = toset(["p", "q"])
  to       = terraform_data.c[each.value]
  id       = "c-${each.value}"
}

resource "terraform_data" "a" {
  for_each = local.things
}

resource "terraform_data" "c" {
  for_each = toset(["p", "q"])
}

resource "terraform_data" "b" {
  input = 1
}
