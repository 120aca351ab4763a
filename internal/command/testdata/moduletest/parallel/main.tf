variable "name" {
  type = string
}

resource "terraform_data" "item" {
  input = var.name

  provisioner "local-exec" {
    when    = destroy
    command = "echo destroy ${self.input} >> log.txt"
  }
}

output "name" {
  value = terraform_data.item.output
}
