run "first" {
  override_resource {
    target = terraform_data.many
    values = {
      output = "same"
    }
  }
  assert {
    condition     = alltrue([for m in terraform_data.many : m.output == "same"])
    error_message = "count instances not overridden"
  }
}
