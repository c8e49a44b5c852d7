a = "pre ${ var.x } post"
b = "${ a }${ b }"
c = "${ {a=1} }"
