resource "terraform_data" "src" {
  input = ["a", "b"]
}
resource "tp_thing" "a" {
  name = "x"
  list = [terraform_data.src.id, "q"]
  tags = { a = terraform_data.src.id, b = "c" }
  lobj = [{ a = terraform_data.src.id, b = 1 }]
  single {
    a = terraform_data.src.id
  }
}
