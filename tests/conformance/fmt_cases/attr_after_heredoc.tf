x {
  a = <<EOT
text
EOT
  bbbbb = 1
}
