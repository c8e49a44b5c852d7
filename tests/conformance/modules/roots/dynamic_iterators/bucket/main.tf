variable "name" {
  type = string
}

variable "versioning" {
  type    = map(string)
  default = {}
}

variable "rules" {
  type = any
}

resource "aws_s3_bucket" "this" {
  bucket = var.name

  dynamic "versioning" {
    for_each = length(keys(var.versioning)) == 0 ? [] : [var.versioning]
    content {
      enabled    = lookup(versioning.value, "enabled", null)
      mfa_delete = lookup(versioning.value, "mfa_delete", null)
    }
  }

  dynamic "lifecycle_rule" {
    for_each = var.rules
    iterator = rule
    content {
      id      = rule.value.id
      enabled = true
      prefix  = lookup(rule.value, "prefix", null)

      expiration {
        days = rule.value.days
      }

      dynamic "transition" {
        for_each = rule.value.transitions
        content {
          days          = transition.value.days
          storage_class = transition.value.class
        }
      }
    }
  }
}

output "id" {
  value = element(concat(aws_s3_bucket.this.*.id, [""]), 0)
}
