locals {
  prefix      = lower("${var.project}-${var.environment}")
  is_prod     = var.environment == "prod"
  replicas    = local.is_prod ? max(var.instance_count, 3) : 1
  names       = [for i in range(var.instance_count) : format("%s-node-%02d", local.prefix, i + 1)]
  name_length = { for n in local.names : n => length(n) }
  common_tags = merge(var.tags, { environment = var.environment, managed_by = "groundplan" })
  tag_summary = join(", ", [for k, v in local.common_tags : "${k}=${v}"])
  connection  = "postgres://app:${var.db_password}@${local.prefix}-db:5432/app"
}
