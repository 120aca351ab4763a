variable "name" {
  type = string
}

resource "terraform_data" "helper" {
  input = var.name

  provisioner "local-exec" {
    when    = destroy
    command = "echo destroy helper ${self.input} >> log.txt"
  }
}

output "name" {
  value = terraform_data.helper.output
}
