resource "terraform_data" "inner" { input = "inner" }
