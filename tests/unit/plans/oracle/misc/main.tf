variable "secret" {
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "w" {
  input = var.secret
}
resource "terraform_data" "ml" {
  input = "a\nx\nc\nd"
}
resource "terraform_data" "js" {
  input = jsonencode({ a = 2, b = [1, 2] })
}
resource "terraform_data" "num" {
  input = [1.5, 1000000, 1e21, -0.25, 123456789, 0.0001, 0.00001]
}
resource "terraform_data" "tc" {
  input = 5
}
resource "terraform_data" "ob" {
  input = { a = "2", "with space" = 2, new = null }
}
resource "terraform_data" "new" {
  input = { ml = "l1\nl2", js = jsonencode(["q"]), num = [1.5, 1000000, 1e21, 0.00001] }
}
output "o" {
  value = { a = 2, b = "x" }
}
