# `groundplan test` (or `terraform test`) in examples/resources: terraform_data objects are
# created in memory for each apply run and destroyed at the end.

run "plan" {
  command = plan

  assert {
    condition     = terraform_data.network.input.name == "shop-net"
    error_message = "The network is named after the app."
  }
}

run "apply" {
  assert {
    condition     = length(output.workers) == 2
    error_message = "Two workers."
  }

  assert {
    condition     = output.endpoints["eu"] == "https://eu.shop.example"
    error_message = "One endpoint per region."
  }
}

run "other_app" {
  variables {
    app     = "blog"
    regions = ["us"]
  }

  assert {
    condition     = keys(output.endpoints) == ["us"]
    error_message = "The eu endpoint is gone."
  }

  assert {
    condition     = output.network.name == "blog-net"
    error_message = "The network follows the app name."
  }
}
