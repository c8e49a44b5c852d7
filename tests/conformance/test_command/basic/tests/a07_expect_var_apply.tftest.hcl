run "bad" {
  variables {
    name = ""
  }
  expect_failures = [var.name]
}
