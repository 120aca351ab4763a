# Preconditions and postconditions of data resources are checked as
# Terraform checks them: during plan when the data source is read then,
# after the read during apply otherwise.
variable "want" {
  default = "hi"
}

resource "terraform_data" "a" {
  input = "1"
}

data "terraform_remote_state" "now" {
  backend = "local"
  config = {
    path = "modules/other.tfstate"
  }
  lifecycle {
    postcondition {
      condition     = self.outputs.o == var.want
      error_message = "The output is not ${var.want}."
    }
  }
}

data "terraform_remote_state" "later" {
  backend = "local"
  config = {
    path = "${substr(terraform_data.a.input, 0, 0)}modules/other.tfstate"
  }
  lifecycle {
    precondition {
      condition     = var.want != ""
      error_message = "want is empty."
    }
    postcondition {
      condition     = self.outputs.o != ""
      error_message = "The output is empty."
    }
  }
}
