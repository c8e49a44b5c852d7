run "plan" {
  command = plan
  assert {
    condition     = length(terraform_data.many) == 2
    error_message = "there are ${length(terraform_data.many)}"
  }
}

run "continues" {
  command = plan
  assert {
    condition     = var.limit == 3
    error_message = "limit"
  }
}
