resource "a" "b" {
  type = "string"
}
output "o" {
  value = "${var.x}"
  type = list
}
