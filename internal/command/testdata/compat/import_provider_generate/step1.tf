resource "terraform_data" "seed" {
  input = "seed"
}
