run "create" {}

run "replace" {
  plan_options {
    replace = [terraform_data.x]
  }
  assert {
    condition     = output.id != run.create.id
    error_message = "not replaced"
  }
}
