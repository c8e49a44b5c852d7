a = [for x in var.l: upper(x) if x!=""]
b = {for k,v in var.m: k=>v...}
c = [for x in [1,2]: x]
