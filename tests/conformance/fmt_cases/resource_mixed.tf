resource "x" "y" {
  count = var.enabled ? 1 : 0
  name = "${var.prefix}-${count.index}"
  provisioner "local-exec" {
    command = <<EOT
echo ${self.id}
  echo "indented"
EOT
  }
  a = jsonencode({
    "k" = "v"
  })
  b = <<EOT
x
EOT
  ccc = 1 /* c */ # d
}
output "o" { value = "${x}" }
output "p" {
  value = {
    a = 1, b = 2,
    c = 3
  }
  sensitive = true
}
