a = max( 1,2,3 )
b = concat(var.a, var.b,)
c = max(var.l...)
d = join(",",
  var.l,
)
