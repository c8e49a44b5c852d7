a = f(x ...)
b = {for k, v in m : v => k ...}
