run "apply" {
  assert {
    condition     = output.o == "b"
    error_message = "output is ${output.o}"
  }
}
