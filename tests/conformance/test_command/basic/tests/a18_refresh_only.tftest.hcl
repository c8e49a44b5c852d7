run "create" {}

run "refresh" {
  plan_options {
    mode = refresh-only
  }
  assert {
    condition     = output.o == "a"
    error_message = "state lost"
  }
}
