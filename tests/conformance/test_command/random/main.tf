terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "3.6.3"
    }
  }
}

variable "length" {
  type    = number
  default = 8
}

resource "random_string" "s" {
  length  = var.length
  special = false
}

resource "random_string" "alt" {
  provider = random.other
  length   = 4
}

provider "random" {
  alias = "other"
}

output "value" {
  value = random_string.s.result
}
