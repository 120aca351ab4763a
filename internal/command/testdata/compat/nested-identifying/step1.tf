# Attributes named id, name and tags are shown whole inside a changed
# object value, changed or not, as in a resource's own attributes.
resource "terraform_data" "a" {
  input = {
    name  = "a0"
    tags  = { a = "1", b = "2", c = "3" }
    keep  = "same"
    other = { a = "1", b = "2" }
    id    = ["p", "q"]
    l     = ["u", "v"]
  }
}
