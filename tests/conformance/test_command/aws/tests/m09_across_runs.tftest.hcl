mock_provider "aws" {}

mock_provider "aws" {
  alias = "west"
}

run "first" {
  variables {
    bucket = "one"
  }
}

run "second" {
  variables {
    bucket = "${run.first.bucket}-two"
  }
  assert {
    condition     = output.bucket == "one-two"
    error_message = "got ${output.bucket}"
  }
}
