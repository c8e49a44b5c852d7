resource "terraform_data" "b" {
  input = "a"
}
resource "terraform_data" "nested" {
  input = { name = "x", list = [1, 2, 3], obj = { k = true } }
}
moved {
  from = terraform_data.a
  to = terraform_data.b
}
import {
  to = terraform_data.imp
  id = "abc-123"
}
resource "terraform_data" "imp" {
}
output "out" {
  value = terraform_data.b.output
}
output "static" {
  value = "hello"
}
