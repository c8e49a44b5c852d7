a = aws_instance.x.*.id
b = aws_instance.x[*].id
c = var.l [0]
d = var.m [ "k" ]
