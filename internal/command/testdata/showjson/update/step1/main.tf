variable "password" {
  type      = string
  default   = "one"
  sensitive = true
}

variable "tags" {
  type        = map(string)
  default     = { env = "dev" }
  description = "Tags to apply."
}

locals {
  names = ["a", "b", "c"]
}

resource "terraform_data" "same" {
  input = "unchanged"
}

resource "terraform_data" "update" {
  input = { user = "admin", password = var.password, list = [1, 2], tags = var.tags }
}

resource "terraform_data" "replace" {
  input            = "r"
  triggers_replace = { version = 1 }
}

resource "terraform_data" "cbd" {
  input            = "c"
  triggers_replace = 1
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "orphan" {
  input = "gone soon"
}

resource "terraform_data" "counted" {
  count = 3
  input = local.names[count.index]
}

resource "terraform_data" "each" {
  for_each = toset(local.names)
  input    = each.value
}

resource "terraform_data" "rep" {
  for_each = toset(["x", "y"])
  input    = each.key
}

output "same" {
  value = terraform_data.same.output
}

output "changing" {
  value = terraform_data.update.input.user
}

output "removed" {
  value = "bye"
}

output "secret" {
  value     = var.password
  sensitive = true
}

output "list" {
  value = [for c in terraform_data.counted : c.input]
}
