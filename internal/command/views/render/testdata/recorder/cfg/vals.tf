variable "typed" {
  type = object({
    l  = list(string)
    s  = set(number)
    m  = map(bool)
    n  = string
    ln = list(object({ a = string, b = number }))
  })
  default = {
    l  = ["a", "b"]
    s  = [3, 1, 2]
    m  = { x = true, "y z" = false }
    n  = null
    ln = [{ a = "q", b = 1.25 }]
  }
}
output "typed" {
  value = var.typed
}
output "empty_list" {
  value = tolist([])
}
output "empty_map" {
  value = tomap({})
}
output "empty_set" {
  value = toset([])
}
output "empty_tuple" {
  value = []
}
output "empty_obj" {
  value = {}
}
output "nested_multi" {
  value = { text = "a\nEOT\n  b" }
}
output "multi_eot" {
  value = "x\nEOT\n"
}
output "escapes" {
  value = "tab\t quote\" back\\ nl-free $${x} %%{y} uni é \u00a0"
}
output "nums" {
  value = [0, -1.5, 1e21, 1/3]
}
output "b" {
  value = false
}
output "nested_lists" {
  value = [[1, 2], [], [[["deep"]]]]
}
output "list_of_maps" {
  value = tolist([tomap({ a = "1" }), tomap({ b = "2" })])
}
output "map_of_lists" {
  value = tomap({ k = tolist(["v"]) })
}
output "json" {
  value = jsonencode({ a = [1] })
}
output "sens" {
  value     = { s = "x" }
  sensitive = true
}
