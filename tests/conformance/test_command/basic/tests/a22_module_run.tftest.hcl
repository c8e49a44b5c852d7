run "setup" {
  module {
    source = "./setup"
  }
  variables {
    seed = "s1"
  }
}

run "main" {
  variables {
    name = run.setup.name
  }
  assert {
    condition     = output.o == "s1-setup"
    error_message = "got ${output.o}"
  }
}
