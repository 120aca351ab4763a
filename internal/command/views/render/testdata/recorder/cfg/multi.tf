resource "terraform_data" "a" {
  input = "line1\nline2\nline3\n"
}
