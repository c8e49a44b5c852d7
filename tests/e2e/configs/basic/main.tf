variable "secret" {
  type      = string
  sensitive = true
  default   = "unset"
}

resource "terraform_data" "network" {
  input = "vpc"
}

resource "terraform_data" "subnet" {
  count = 3
  input = "${terraform_data.network.output}-subnet-${count.index}"
}

resource "terraform_data" "app" {
  input = {
    subnets = terraform_data.subnet[*].output
    secret  = var.secret
  }
}

output "subnets" {
  value = terraform_data.subnet[*].output
}
