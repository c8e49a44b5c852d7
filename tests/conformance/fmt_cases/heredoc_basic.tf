x {
  s = <<EOT
  keep   this
    indented ${var.x}
EOT
  t = 1
}
