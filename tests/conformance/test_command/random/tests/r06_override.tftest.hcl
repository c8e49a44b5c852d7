override_resource {
  target = random_string.s
  values = {
    result = "notrandom"
  }
}

run "apply" {
  assert {
    condition     = output.value == "notrandom"
    error_message = "got ${output.value}"
  }
}
