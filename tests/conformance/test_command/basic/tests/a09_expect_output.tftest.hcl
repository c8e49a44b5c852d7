run "seven" {
  command = plan
  variables {
    limit = 7
  }
  expect_failures = [output.checked]
}
