# As the terraform-aws-cloudwatch README's log-group example (v3.3.0).
module "log_group" {
  source = "../../cloudwatch-log-group"

  name              = "gp-my-app"
  retention_in_days = 120
}

output "cloudwatch_log_group_arn" {
  value = module.log_group.cloudwatch_log_group_arn
}
