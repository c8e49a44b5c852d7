run "t" {
command = plan
  assert {
  condition = output.x == "y"
    error_message = "no"
  }
}
