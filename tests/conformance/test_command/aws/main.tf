terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "3.39.0"
    }
  }
}

provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

variable "bucket" {
  type    = string
  default = "groundplan-test"
}

resource "aws_s3_bucket" "b" {
  bucket = var.bucket
}

resource "aws_s3_bucket" "w" {
  provider = aws.west
  bucket   = "${var.bucket}-west"
}

data "aws_caller_identity" "me" {}

resource "aws_sqs_queue" "q" {
  name = "${var.bucket}-queue"

  lifecycle {
    postcondition {
      condition     = self.delay_seconds == 0
      error_message = "Queues must not delay."
    }
  }
}

output "bucket" {
  value = aws_s3_bucket.b.bucket
}

output "arn" {
  value = aws_s3_bucket.b.arn
}

output "account" {
  value = data.aws_caller_identity.me.account_id
}
