override_module {
  target = module.child
  outputs = {
    label = "MOCKED"
  }
}

run "apply" {
  assert {
    condition     = output.child == "MOCKED"
    error_message = "module not overridden"
  }
}
