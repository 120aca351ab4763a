resource "terraform_data" "a" {
  input = {
    name = "y"
    list = [1, 3, "three", 4]
    nested = { enabled = true, n = 1.5 }
    empty = []
    emptyo = {}
    nul = null
  }
}
