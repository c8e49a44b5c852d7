resource "a" "b" {
  dynamic "ing" {
    for_each = var.l
    content {
      port = ing.value
      cidr_blocks = ["0.0.0.0/0"]
    }
  }
}
