resource "terraform_data" "src" {
  input = ["a", "b"]
}
resource "tp_thing" "a" {
  name = "x"
  list = terraform_data.src.output
  tags = { a = terraform_data.src.id, b = "c" }
  lobj = [{ a = terraform_data.src.id, b = 1 }]
  nsingle = { x = terraform_data.src.id }
  dynamic "item" {
    for_each = terraform_data.src.output
    content {
      k = item.value
    }
  }
  single {
    a = terraform_data.src.id
  }
}
