resource "terraform_data" "a" {
  input = {
    name = "x"
    list = [1, 2, "three"]
    nested = { enabled = true, n = 1.5 }
    empty = []
    emptyo = {}
    nul = null
  }
}
