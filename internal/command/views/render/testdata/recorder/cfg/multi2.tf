resource "terraform_data" "a" {
  input = "line1\nlineX\nline3\n"
}
