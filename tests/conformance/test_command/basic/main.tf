variable "name" {
  type    = string
  default = "a"
  validation {
    condition     = length(var.name) > 0
    error_message = "The name must not be empty."
  }
}

variable "limit" {
  type    = number
  default = 3
}

resource "terraform_data" "x" {
  input = var.name

  lifecycle {
    precondition {
      condition     = var.limit < 10
      error_message = "The limit is too high."
    }
  }
}

resource "terraform_data" "many" {
  count = var.limit
  input = "${var.name}-${count.index}"
}

module "child" {
  source = "./child"
  label  = var.name
}

output "o" {
  value = terraform_data.x.output
}

output "id" {
  value = terraform_data.x.id
}

output "child" {
  value = module.child.label
}

output "checked" {
  value = var.limit
  precondition {
    condition     = var.limit != 7
    error_message = "Seven is not allowed."
  }
}

check "limit" {
  assert {
    condition     = var.limit != 5
    error_message = "Five is discouraged."
  }
}
