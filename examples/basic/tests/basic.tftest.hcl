# `groundplan test` (or `terraform test`) in examples/basic: plan-only runs, nothing is created.

run "defaults" {
  command = plan

  assert {
    condition     = output.prefix == "groundplan-dev"
    error_message = "The prefix is built from the project and the environment."
  }

  assert {
    condition     = output.replicas == 1
    error_message = "Outside production there is a single replica."
  }

  assert {
    condition     = length(output.node_names) == 3
    error_message = "One node name per instance."
  }
}

run "production" {
  command = plan

  variables {
    environment    = "prod"
    instance_count = 2
  }

  assert {
    condition     = output.replicas == 3
    error_message = "Production runs at least three replicas."
  }

  assert {
    condition     = output.tags["environment"] == "prod"
    error_message = "The environment tag follows the variable."
  }
}

run "invalid_project" {
  command = plan

  variables {
    project = "X"
  }

  expect_failures = [var.project]
}
