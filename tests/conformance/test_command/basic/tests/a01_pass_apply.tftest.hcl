run "apply" {
  assert {
    condition     = terraform_data.x.output == "a"
    error_message = "wrong output"
  }
  assert {
    condition     = length(terraform_data.many) == 3
    error_message = "wrong count"
  }
}
