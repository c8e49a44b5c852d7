a = <<EOT
${ foo( 1,2 ) } and %{ if x }y%{ endif }
EOT
