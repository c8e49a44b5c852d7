run "first" {
  variables {
    length = 5
  }
}

run "second" {
  variables {
    length = length(run.first.value) + 1
  }
  assert {
    condition     = length(output.value) == 6
    error_message = "got ${length(output.value)}"
  }
}
