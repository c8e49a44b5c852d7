variable "obj" {
  type = object({
  a = string
    b = list(number)
  })
  default = {a="x", b=[1]}
  description = "${var.d}"
}
