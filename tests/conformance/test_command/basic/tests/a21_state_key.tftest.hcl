run "one" {
  state_key = "alt"
  variables {
    name = "alt"
  }
}

run "two" {
  command = plan
  assert {
    condition     = terraform_data.x.input == "a"
    error_message = "shared the wrong state"
  }
}
