variable "env" {
  type        = string
  description = "Deployment environment."
  default     = "dev"

  validation {
    condition     = contains(["dev", "prod"], var.env)
    error_message = "Unknown environment."
  }
}

variable "zones" {
  type    = list(string)
  default = ["a", "b"]
}

variable "settings" {
  type = object({
    size = optional(number, 1)
    tags = optional(map(string), {})
  })
  default = {}
}

variable "password" {
  type      = string
  sensitive = true
  nullable  = false
}
