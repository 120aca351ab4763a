# Import blocks naming the provider configuration their target is
# configured with, with and without for_each.
provider "terraform" {
  alias = "alt"
}

resource "terraform_data" "seed" {
  input = "seed"
}

import {
  to       = terraform_data.a
  id       = "abc-123"
  provider = terraform.alt
}

resource "terraform_data" "a" {
  provider = terraform.alt
}

import {
  for_each = toset(["p", "q"])
  to       = terraform_data.each[each.key]
  id       = "id-${each.key}"
  provider = terraform.alt
}

resource "terraform_data" "each" {
  for_each = toset(["p", "q"])
  provider = terraform.alt
}
