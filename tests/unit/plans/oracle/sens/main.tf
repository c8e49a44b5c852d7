variable "secret" {
  type = string
  default = "hunter2"
  sensitive = true
}
variable "plain" {
  default = ["a"]
}
resource "terraform_data" "s" {
  input = { user = "bob", pass = var.secret }
}
resource "terraform_data" "t" {
  input = var.secret
}
output "pw" {
  value = var.secret
  sensitive = true
}
