run "bad" {
  command = plan
  variables {
    name = ""
  }
  expect_failures = [var.name]
}
