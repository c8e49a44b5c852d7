# As the terraform-aws-dynamodb-table README's usage example (v1.2.2).
module "dynamodb_table" {
  source = "../../dynamodb-table"

  name     = "gp-my-table"
  hash_key = "id"

  attributes = [
    {
      name = "id"
      type = "N"
    }
  ]

  tags = {
    Terraform   = "true"
    Environment = "staging"
  }
}

output "dynamodb_table_arn" {
  value = module.dynamodb_table.dynamodb_table_arn
}
