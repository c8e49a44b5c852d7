run "broken" {
  variables {
    limit = 12
  }
}

run "skipped" {
  command = plan
}
