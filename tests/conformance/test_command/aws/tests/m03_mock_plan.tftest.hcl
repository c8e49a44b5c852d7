mock_provider "aws" {}

mock_provider "aws" {
  alias = "west"
}

run "plan" {
  command = plan
  variables {
    bucket = "planned"
  }
  assert {
    condition     = aws_s3_bucket.b.bucket == "planned"
    error_message = "bucket"
  }
}

run "plan_unknown" {
  command = plan
  assert {
    condition     = output.arn == "x"
    error_message = "arn"
  }
}
