a = ! var.x
b = !!var.y
c = ! (x)
