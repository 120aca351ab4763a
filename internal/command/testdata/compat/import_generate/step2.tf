# An import block with no configuration for its target: with
# -generate-config-out the plan writes the resource block and imports.
resource "terraform_data" "seed" {
  input = "seed"
}

import {
  to = terraform_data.adopted
  id = "abc-123"
}
