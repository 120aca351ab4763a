resource "terraform_data" "a" {
  input = { list = ["x"], n = 1 }
}
resource "terraform_data" "b" {
  count = 2
  input = terraform_data.a.output.n + count.index
}
output "b" {
  value = terraform_data.b[*].output
}
