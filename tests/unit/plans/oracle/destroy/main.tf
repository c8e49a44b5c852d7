resource "terraform_data" "a" {
  input = "a"
}
resource "terraform_data" "nested" {
  input = { name = "x", list = [1, 2, 3], obj = { k = true } }
}
output "out" {
  value = terraform_data.a.output
}
output "static" {
  value = "hello"
}
