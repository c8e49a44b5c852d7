output "foo" {
  sensitive = true
}
