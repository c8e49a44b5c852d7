run "too_high" {
  command = plan
  variables {
    limit = 11
  }
  expect_failures = [terraform_data.x]
}
