resource "terraform_data" "a" {
  input = "a"
  triggers_replace = ["y"]
}
resource "terraform_data" "nested" {
  input = { name = "x", list = [1, 2, 3], obj = { k = true } }
  triggers_replace = 3
  lifecycle {
    create_before_destroy = true
  }
}
output "out" {
  value = terraform_data.a.output
}
output "static" {
  value = "hello"
}
