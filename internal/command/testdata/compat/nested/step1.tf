resource "terraform_data" "n" {
  input = {
    name  = "n"
    list  = [1, 2, 3]
    map   = { a = "1", b = "2" }
    inner = { deep = { x = true, y = null } }
  }
}
