run "five" {
  variables {
    limit = 5
  }
  expect_failures = [check.limit]
}
