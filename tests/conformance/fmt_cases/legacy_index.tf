a = var.l.0
b = var.l.0.x
