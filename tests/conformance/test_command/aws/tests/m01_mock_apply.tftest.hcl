mock_provider "aws" {}

mock_provider "aws" {
  alias = "west"
}

run "apply" {
  assert {
    condition     = output.bucket == "groundplan-test"
    error_message = "bucket"
  }
  assert {
    condition     = length(output.arn) == 8
    error_message = "generated arn has 8 characters"
  }
}
