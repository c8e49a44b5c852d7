resource "terraform_data" "a" {
  input = ["y"]
}
resource "terraform_data" "b" {
  input = ["y", "p", "r"]
}
resource "terraform_data" "c" {
  input = [1, 2, 3]
  triggers_replace = [1, 5, 3, 4]
}
