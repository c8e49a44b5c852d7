run "five" {
  command = plan
  variables {
    limit = 5
  }
}
