run "plan" {
  command = plan
  assert {
    condition     = terraform_data.x.input == "a"
    error_message = "wrong input"
  }
}
