terraform {
  required_version = ">= 1.5.0"

  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "~> 3.0"
    }
  }

  backend "local" {
    path = "terraform.tfstate"
  }
}

locals {
  prefix = "app-${var.env}"
  count  = length(var.zones)
}

resource "terraform_data" "web" {
  count = local.count

  input = "${local.prefix}-${count.index}"

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [input]

    postcondition {
      condition     = self.output != null
      error_message = "No output."
    }
  }
}

data "terraform_remote_state" "net" {
  backend = "local"

  config = {
    path = "${path.module}/net.tfstate"
  }

  depends_on = [terraform_data.web]
}
