variable "str" {
  type = string
}
variable "lst" {
  type    = list(string)
  default = []
}
variable "mp" {
  type = map(string)
}
variable "bare_list" {
  type = list(any)
}
variable "bare_map" {
  type = map(any)
}
variable "bare_set" {
  type = set(any)
}
variable "quoted_number" {
  type = "number"
}
variable "quoted_set" {
  type = "set"
}
variable "modern" {
  type = list(string)
}
variable "with_comment" {
  type = list(any) # legacy
}
variable "one_line" { type = string }
variable "default_interp" {
  type    = string
  default = local.x
}
variable "type_interp" {
  type = "${string}"
}
variable "validated" {
  type = string
  validation {
    type          = list
    condition     = length(var.validated) > 0
    error_message = "Must not be empty."
  }
}
resource "x" "y" {
  type = list
}
