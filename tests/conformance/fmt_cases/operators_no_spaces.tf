a = 1+2*3/4%5
b = x==y&&z!=w||!v
c = a>=b
d = a<b
