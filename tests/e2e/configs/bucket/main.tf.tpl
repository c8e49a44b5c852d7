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
    s3  = "ENDPOINT"
    sts = "ENDPOINT"
  }
}

variable "db_password" {
  type      = string
  sensitive = true
}

resource "aws_s3_bucket" "logs" {
  bucket = "e2e-logs-bucket"
  tags = {
    team = "platform"
  }
}

resource "aws_s3_bucket" "data" {
  bucket = "e2e-data-bucket"
}

resource "terraform_data" "password_holder" {
  input = var.db_password
}

output "password" {
  value     = var.db_password
  sensitive = true
}
