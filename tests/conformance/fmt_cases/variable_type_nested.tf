variable "a" {
  type = "string" # c
  default = "${1}"
}
variable "b" { type = "list" }
module "m" {
  variable "x" {
    type = "string"
  }
}
