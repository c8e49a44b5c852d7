resource "terraform_data" "a" {
  input = "b"
}
resource "terraform_data" "nested" {
  input = { name = "x", list = [1, 5, 3, 4], obj = { k = false } }
}
output "out" {
  value = terraform_data.a.output
}
output "static" {
  value = "bye"
}
