variable "foo" {
  description = "overridden"
}
