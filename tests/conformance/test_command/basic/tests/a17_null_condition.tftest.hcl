run "nothing" {
  command = plan
  assert {
    condition     = var.name == "a" ? null : true
    error_message = "null"
  }
}
