a = "${~x~}"
b = "${x}" # c
c = <<EOT
${x}
EOT
d = "${<<EOT
hi
EOT
}"
