a = jsonencode(<<EOT
{"a": 1}
EOT
)
b = 1
