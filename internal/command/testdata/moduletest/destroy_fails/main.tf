variable "name" {
  type = string
}

resource "terraform_data" "item" {
  input = var.name

  # The destroy fails: the object is left, and strata saves its state.
  provisioner "local-exec" {
    when    = destroy
    command = "exit 3"
  }
}
