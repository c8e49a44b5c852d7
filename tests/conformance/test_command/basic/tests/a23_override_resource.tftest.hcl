override_resource {
  target = terraform_data.x
  values = {
    output = "overridden"
  }
}

run "apply" {
  assert {
    condition     = output.o == "overridden"
    error_message = "override not applied: ${output.o}"
  }
}
