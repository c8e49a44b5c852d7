a = var.m["k"].x[0]
b = local.l[ 1 ] . y
