# The configuration `make demo-cloud` runs through the local control plane: a small graph whose
# independent parts (the three subnets, then the two services) apply side by side.

variable "environment" {
  type    = string
  default = "staging"
}

resource "terraform_data" "network" {
  input = "${var.environment}-vpc"
}

resource "terraform_data" "subnet" {
  for_each = toset(["a", "b", "c"])
  input    = "${terraform_data.network.output}-subnet-${each.key}"
}

resource "terraform_data" "service" {
  for_each = toset(["api", "worker"])
  input = {
    name    = each.key
    subnets = [for s in terraform_data.subnet : s.output]
  }
}

output "services" {
  value = { for k, s in terraform_data.service : k => s.output.name }
}
