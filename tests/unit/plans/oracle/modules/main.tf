variable "name" {
  type    = string
  default = "n1"
  description = "a name"
}
locals {
  upper = upper(var.name)
}
module "child" {
  source = "./mod"
  v      = local.upper
}
resource "terraform_data" "r" {
  input = [module.child.o, var.name, "lit", 1 + 2]
  triggers_replace = terraform_data.plain.id
  depends_on = [terraform_data.plain]
}
resource "terraform_data" "plain" {
  input = null
}
output "child" {
  value       = module.child.o
  description = "child id"
}
