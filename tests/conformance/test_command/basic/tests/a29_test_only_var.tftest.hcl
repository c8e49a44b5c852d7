variables {
  expected = "a"
}

run "uses_test_var" {
  assert {
    condition     = output.o == var.expected
    error_message = "mismatch"
  }
}
