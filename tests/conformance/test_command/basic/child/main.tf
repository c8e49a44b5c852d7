variable "label" {
  type = string
}

resource "terraform_data" "c" {
  input = upper(var.label)
}

output "label" {
  value = terraform_data.c.output
}
