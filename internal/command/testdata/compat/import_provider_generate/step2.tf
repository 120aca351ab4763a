# An import block's provider is written into the configuration it
# generates.
provider "terraform" {
  alias = "alt"
}

resource "terraform_data" "seed" {
  input = "seed"
}

import {
  to       = terraform_data.adopted
  id       = "abc-123"
  provider = terraform.alt
}
