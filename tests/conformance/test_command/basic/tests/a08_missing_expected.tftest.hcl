run "fine" {
  command         = plan
  expect_failures = [var.name]
}
