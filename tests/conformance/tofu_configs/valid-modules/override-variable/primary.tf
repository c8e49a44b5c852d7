variable "fully_overridden" {
  default = "base"
  description = "base description"
  type = string
}

variable "partially_overridden" {
  default = "base"
  description = "base description"
  type = string
}
