variable "password" {
  type      = string
  default   = "two"
  sensitive = true
}

variable "tags" {
  type        = map(string)
  default     = { env = "prod" }
  description = "Tags to apply."
}

variable "extra" {
  type    = string
  default = "e"
}

locals {
  names = ["a", "b"]
}

resource "terraform_data" "same" {
  input = "unchanged"
}

resource "terraform_data" "update" {
  input = { user = "root", password = var.password, list = [1, 2, 3], tags = var.tags }
}

resource "terraform_data" "replace" {
  input            = "r"
  triggers_replace = { version = 2 }
}

resource "terraform_data" "cbd" {
  input            = "c"
  triggers_replace = 2
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "counted" {
  count = 2
  input = local.names[count.index]
}

resource "terraform_data" "each" {
  for_each = toset(local.names)
  input    = each.value
}

resource "terraform_data" "rep" {
  count = 1
  input = "counted now"
}

resource "terraform_data" "new" {
  input            = terraform_data.same.output
  triggers_replace = [terraform_data.update.id, var.extra]
  depends_on       = [terraform_data.replace]
}

output "same" {
  value = terraform_data.same.output
}

output "changing" {
  value = terraform_data.update.input.user
}

output "secret" {
  value     = var.password
  sensitive = true
}

output "list" {
  value = [for c in terraform_data.counted : c.input]
}

output "added" {
  value       = { a = 1, b = [true, false], c = terraform_data.new.id }
  description = "A new output, partly unknown."
}

output "known" {
  value = "k"
}
