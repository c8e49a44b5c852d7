variable "v" {
  type = string
}
resource "terraform_data" "m" {
  input = var.v
}
output "o" {
  value = terraform_data.m.id
}
