run "first" {
  variables {
    name = "first"
  }
}

run "second" {
  variables {
    name = "${run.first.o}-second"
  }
  assert {
    condition     = output.o == "first-second"
    error_message = "got ${output.o}"
  }
}
