run "apply" {
  assert {
    condition     = output.value == "fixed"
    error_message = "random is random"
  }
}
