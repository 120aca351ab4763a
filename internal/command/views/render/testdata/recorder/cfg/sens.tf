resource "terraform_data" "a" {
  input = sensitive("secret")
}
