variable "incorrectly_typed_default" {
    type    = list(string)
    default = "hello"
}
