mock_provider "aws" {
  mock_resource "aws_sqs_queue" {
    defaults = {
      delay_seconds = 30
    }
  }
}

mock_provider "aws" {
  alias = "west"
}

run "delayed" {
  expect_failures = [aws_sqs_queue.q]
}
