terraform {
  required_version = ">= 1.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

variable "name" {
  type        = string
  description = "The name."
  default     = "example"
}

locals {
  tags = merge(var.tags, {
    Name = var.name
  })
  ids = [for s in var.subnets : s.id if s.enabled]
}

resource "aws_s3_bucket" "this" {
  count  = var.create ? 1 : 0
  bucket = "${var.name}-bucket"

  tags = local.tags
}

output "arn" {
  value = aws_s3_bucket.this[0].arn
}
