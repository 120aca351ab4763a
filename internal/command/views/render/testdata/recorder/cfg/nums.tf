resource "terraform_data" "a" {
  input = [0.1, 1/3, 12345678901234567890, -0, 1e-7, 2e300, 100]
}
