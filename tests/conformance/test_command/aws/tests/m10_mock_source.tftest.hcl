mock_provider "aws" {
  source = "./tests/mocks"

  mock_data "aws_caller_identity" {
    defaults = {
      account_id = "222222222222"
    }
  }
}

mock_provider "aws" {
  alias = "west"
}

run "apply" {
  assert {
    condition     = output.arn == "arn:from-mock-file"
    error_message = "mock file not used: ${output.arn}"
  }
  assert {
    condition     = output.account == "222222222222"
    error_message = "the test file's own block wins"
  }
}
