resource "a" "b" {
  name = "${var.name}"
  tags = { k = "${var.v}" }
  list = ["${var.x}"]
}
