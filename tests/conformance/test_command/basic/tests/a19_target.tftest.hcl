run "only_x" {
  plan_options {
    target = [terraform_data.x]
  }
  assert {
    condition     = terraform_data.x.output == "a"
    error_message = "x missing"
  }
}
