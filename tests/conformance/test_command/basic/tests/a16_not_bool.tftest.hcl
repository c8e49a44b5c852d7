run "weird" {
  command = plan
  assert {
    condition     = var.name
    error_message = "not a bool"
  }
}
