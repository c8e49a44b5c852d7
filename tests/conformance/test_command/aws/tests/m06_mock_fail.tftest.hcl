mock_provider "aws" {}

mock_provider "aws" {
  alias = "west"
}

run "apply" {
  assert {
    condition     = aws_s3_bucket.w.bucket == "other"
    error_message = "west bucket is ${aws_s3_bucket.w.bucket}"
  }
}
