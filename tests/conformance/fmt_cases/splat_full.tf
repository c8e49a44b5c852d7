a = var.l[*]
b = var.l.*
c = var.l[*].a.b
