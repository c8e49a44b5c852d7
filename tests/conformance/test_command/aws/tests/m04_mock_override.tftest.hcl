mock_provider "aws" {
  override_resource {
    target = aws_s3_bucket.b
    values = {
      arn = "arn:from-override"
    }
  }
}

mock_provider "aws" {
  alias = "west"
}

run "apply" {
  assert {
    condition     = output.arn == "arn:from-override"
    error_message = "got ${output.arn}"
  }
}
