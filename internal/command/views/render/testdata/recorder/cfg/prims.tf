resource "terraform_data" "a" {
  input = [true, 1, -2.5, 1e20, "quote\"d", "tab\there", null, "unicode é"]
}
