# examples/resources after a refactoring: the network resource is now called "vpc" (see
# refactor.tf for the moved block and an import).

variable "app" {
  type    = string
  default = "shop"
}

variable "regions" {
  type    = set(string)
  default = ["eu", "us"]
}

# The root object everything else derives from.
resource "terraform_data" "vpc" {
  input = {
    name = "${var.app}-net"
    cidr = "10.0.0.0/16"
  }
}

# count: numbered workers that depend on the network.
resource "terraform_data" "worker" {
  count = 2
  input = "${terraform_data.vpc.output.name}-worker-${count.index}"
}

# for_each: one endpoint per region.
resource "terraform_data" "endpoint" {
  for_each = var.regions
  input    = "https://${each.key}.${var.app}.example"
}

# An explicit dependency and a provisioner that runs once, at creation.
resource "terraform_data" "release" {
  triggers_replace = [for w in terraform_data.worker : w.id]
  input            = "release of ${var.app}"

  depends_on = [terraform_data.endpoint]

  provisioner "local-exec" {
    command = "echo deploying ${self.input}"
  }
}

output "network" {
  value = terraform_data.vpc.output
}

output "workers" {
  value = terraform_data.worker[*].output
}

output "endpoints" {
  value = { for k, e in terraform_data.endpoint : k => e.output }
}
