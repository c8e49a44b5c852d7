mock_provider "aws" {}

mock_provider "aws" {
  alias = "west"
}

override_resource {
  target          = aws_s3_bucket.b
  override_during = plan
  values = {
    arn = "arn:at-plan"
  }
}

run "plan" {
  command = plan
  assert {
    condition     = output.arn == "arn:at-plan"
    error_message = "not known at plan"
  }
}
