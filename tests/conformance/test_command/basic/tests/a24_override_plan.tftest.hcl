run "plan" {
  command = plan
  override_resource {
    target          = terraform_data.x
    override_during = plan
    values = {
      id = "fixed"
    }
  }
  assert {
    condition     = output.id == "fixed"
    error_message = "override not visible at plan"
  }
}
