# Attributes named id, name and tags are shown whole inside a changed
# object value, changed or not, as in a resource's own attributes.
resource "terraform_data" "a" {
  input = {
    name  = "a0"
    tags  = { a = "1", b = "9", c = "3" }
    keep  = "diff"
    other = { a = "1", b = "5" }
    id    = ["p", "q"]
    l     = ["u", "v"]
  }
}
