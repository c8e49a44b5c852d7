# As the terraform-aws-sns README's usage example (v3.2.0).
module "sns_topic" {
  source = "../../sns"

  name = "gp-my-topic"
}

output "sns_topic_arn" {
  value = module.sns_topic.sns_topic_arn
}
