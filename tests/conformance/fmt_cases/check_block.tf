check "c" {
  assert {
  condition = var.x>0
  error_message = "bad"
  }
}
