resource "terraform_data" "a" {
  input = ["a", "b", "c", "d", "e", "f"]
}
