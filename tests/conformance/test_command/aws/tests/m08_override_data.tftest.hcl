mock_provider "aws" {}

mock_provider "aws" {
  alias = "west"
}

override_data {
  target = data.aws_caller_identity.me
  values = {
    account_id = "000000000000"
  }
}

run "apply" {
  assert {
    condition     = output.account == "000000000000"
    error_message = "data override"
  }
}
