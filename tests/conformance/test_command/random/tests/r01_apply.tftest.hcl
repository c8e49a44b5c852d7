run "apply" {
  assert {
    condition     = length(output.value) == 8
    error_message = "wrong length"
  }
}
