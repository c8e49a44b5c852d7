run "plan" {
  command = plan
  variables {
    length = 12
  }
  assert {
    condition     = random_string.s.length == 12
    error_message = "wrong planned length"
  }
}
