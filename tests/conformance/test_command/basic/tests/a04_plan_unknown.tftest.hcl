run "plan" {
  command = plan
  assert {
    condition     = output.id == "x"
    error_message = "unknown id"
  }
}

run "after" {
  command = plan
}
