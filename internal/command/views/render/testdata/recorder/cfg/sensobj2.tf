resource "terraform_data" "a" {
  input = { user = "alice", pass = sensitive("secret2") }
}
