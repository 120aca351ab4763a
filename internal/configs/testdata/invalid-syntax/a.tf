variable "ok" {}
