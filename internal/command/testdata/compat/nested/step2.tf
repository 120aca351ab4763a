resource "terraform_data" "n" {
  input = {
    name  = "n"
    list  = [1, 3, 4]
    map   = { a = "1", c = "3" }
    inner = { deep = { x = false, y = "now" } }
  }
}
