# The configuration `make demo-cloud` runs through the local control plane: a small graph whose
# independent parts (the three subnets, then the two services) apply side by side, and an S3
# bucket made by the real hashicorp/aws provider on the local cloud (moto), which the demo then
# changes behind groundplan's back so that the drift schedule has something to find.

variable "environment" {
  type    = string
  default = "staging"
}

variable "aws_endpoint" {
  type        = string
  description = "The AWS API endpoint (the local cloud's moto server; `groundplan cloud local` prints it)."
}

terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "3.39.0"
    }
  }
}

provider "aws" {
  region                      = "us-east-1"
  skip_credentials_validation = true
  skip_metadata_api_check     = true
  skip_requesting_account_id  = true
  skip_region_validation      = true
  skip_get_ec2_platforms      = true
  s3_force_path_style         = true
  endpoints {
    s3  = var.aws_endpoint
    sts = var.aws_endpoint
  }
}

resource "aws_s3_bucket" "artifacts" {
  bucket = "${var.environment}-artifacts"
  tags = {
    team        = "platform"
    environment = var.environment
  }
}

resource "terraform_data" "network" {
  input = "${var.environment}-vpc"
}

resource "terraform_data" "subnet" {
  for_each = toset(["a", "b", "c"])
  input    = "${terraform_data.network.output}-subnet-${each.key}"
}

resource "terraform_data" "service" {
  for_each = toset(["api", "worker"])
  input = {
    name      = each.key
    subnets   = [for s in terraform_data.subnet : s.output]
    artifacts = aws_s3_bucket.artifacts.bucket
  }
}

output "services" {
  value = { for k, s in terraform_data.service : k => s.output.name }
}
