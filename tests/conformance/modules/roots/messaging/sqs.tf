# As the terraform-aws-sqs README's usage example (v3.1.0).
module "user_queue" {
  source = "../../sqs"

  name = "gp-user"

  tags = {
    Service     = "user"
    Environment = "dev"
  }
}

output "sqs_queue_arn" {
  value = module.user_queue.sqs_queue_arn
}
