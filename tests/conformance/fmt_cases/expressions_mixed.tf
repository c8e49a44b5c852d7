a = x.y[*].z[0]
b = x[*]
c = [for i, v in var.l : { i = i, v = v }]
d = { for k in var.ks : k => upper(k)... }
e = -(1 + 2)
f = 10 % 3 - -1
g = !true || false && !var.x
h = try(var.a.b, null)
i = (var.a
  + var.b)
j = "${var.x}" == "y"
k = [
  # leading
  1, /* inline */ 2
]
