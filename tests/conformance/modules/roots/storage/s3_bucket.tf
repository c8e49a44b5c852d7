# As the terraform-aws-s3-bucket README's usage example (v2.8.0): a private bucket with versioning.
module "s3_bucket" {
  source = "../../s3-bucket"

  bucket = "gp-my-s3-bucket"
  acl    = "private"

  versioning = {
    enabled = true
  }

  tags = {
    Owner = "groundplan"
  }
}

output "s3_bucket_arn" {
  value = module.s3_bucket.s3_bucket_arn
}
