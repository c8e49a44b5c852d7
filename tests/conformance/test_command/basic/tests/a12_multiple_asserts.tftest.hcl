run "many" {
  assert {
    condition     = output.o == "a"
    error_message = "first"
  }
  assert {
    condition     = output.checked == 4
    error_message = "second is ${output.checked}"
  }
  assert {
    condition     = output.child == "A"
    error_message = "third"
  }
}
