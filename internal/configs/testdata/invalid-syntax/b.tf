variable "broken" {
  default =
}
