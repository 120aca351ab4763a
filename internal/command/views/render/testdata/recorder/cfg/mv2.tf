resource "terraform_data" "new" {
  input = "y"
}
moved {
  from = terraform_data.old
  to   = terraform_data.new
}
