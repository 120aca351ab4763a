terraform {
  required_providers {
    test = { source = "hashicorp/test", version = ">= 1.2, != 1.3.1" }
    other = { source = "example.com/acme/other", version = "~> 2" }
  }
}

provider "test" {
  region = "eu"
}

provider "test" {
  alias = "west"
  region = var.region
}

variable "region" {
  type        = string
  default     = "west"
  description = "Where."
}

variable "required" {
  type = number
}

variable "secret" {
  default   = "s"
  sensitive = true
}

variable "nothing" {
  default = null
}

locals {
  m = { k = terraform_data.a.output }
}

resource "terraform_data" "a" {
  count = 2
  input = "${var.region}-${count.index}"
}

resource "terraform_data" "b" {
  for_each         = toset(["x"])
  input            = [terraform_data.a[0].output, local.m["k"], var.secret, each.key]
  triggers_replace = terraform_data.a[*].id
  depends_on       = [terraform_data.a]
}

resource "terraform_data" "constants" {
  count            = length([1])
  input            = { n = 1, s = "two", l = [true, null] }
  triggers_replace = null
}

resource "test_thing" "t" {
  provider = test.west
  name     = "n"
  token    = var.secret
  rule {
    port = 1
  }
  rule {
    port = terraform_data.a[1].id
  }
  timeouts {
    create = "1m"
  }
  tag "a" {
    value = "v"
  }
}

data "test_lookup" "l" {
  key = terraform_data.a[0].id
}

output "a" {
  value = terraform_data.a[*].output
}

output "secret" {
  value       = var.secret
  sensitive   = true
  description = "Shh."
  depends_on  = [terraform_data.b]
}

output "fn" {
  value = upper("x")
}
