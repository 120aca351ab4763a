variable "name" {
  type = string
}

resource "terraform_data" "inner" {
  input = var.name

  provisioner "local-exec" {
    when    = destroy
    command = "echo destroy inner ${self.input} >> log.txt"
  }
}

output "value" {
  value = terraform_data.inner.output
}

output "other" {
  value = "other-${var.name}"
}
