mock_resource "aws_s3_bucket" {
  defaults = {
    arn = "arn:from-mock-file"
  }
}

mock_data "aws_caller_identity" {
  defaults = {
    account_id = "111111111111"
  }
}
