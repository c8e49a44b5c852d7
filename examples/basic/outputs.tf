output "prefix" {
  description = "The naming prefix."
  value       = local.prefix
}

output "replicas" {
  value = local.replicas
}

output "node_names" {
  value = local.names
}

output "name_lengths" {
  value = local.name_length
}

output "tags" {
  value = local.common_tags
}

output "tag_summary" {
  value = upper(local.tag_summary)
}

output "settings" {
  value = {
    production = local.is_prod
    ratio      = var.instance_count / 4
    regions    = toset(["eu-west-1", "us-east-1", "eu-west-1"])
  }
}

output "database_url" {
  value     = local.connection
  sensitive = true
}
