resource "terraform_data" "a" {
  input = { user = "bob", pass = sensitive("secret") }
}
