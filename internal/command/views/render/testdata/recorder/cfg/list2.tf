resource "terraform_data" "a" {
  input = ["a", "b", "x", "d", "e", "f", "g"]
}
