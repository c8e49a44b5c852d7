a = [for x in[1,2]: x]
b = [for x in local.y: x]
