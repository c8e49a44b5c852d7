variable "seed" {
  type    = string
  default = "seed"
}

resource "terraform_data" "s" {
  input = "${var.seed}-setup"
}

output "name" {
  value = terraform_data.s.output
}
