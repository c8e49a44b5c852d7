output "invalid" {
  value      = "Am I deprecated?"
  deprecated = ""
}
