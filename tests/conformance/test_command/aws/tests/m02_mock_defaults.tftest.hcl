mock_provider "aws" {
  mock_resource "aws_s3_bucket" {
    defaults = {
      arn = "arn:aws:s3:::mocked"
    }
  }
  mock_data "aws_caller_identity" {
    defaults = {
      account_id = "123456789012"
    }
  }
}

mock_provider "aws" {
  alias = "west"
}

run "apply" {
  assert {
    condition     = output.arn == "arn:aws:s3:::mocked"
    error_message = "defaults not used"
  }
  assert {
    condition     = output.account == "123456789012"
    error_message = "data defaults not used"
  }
}
