a=1
long_name = [1,2,3]
# comment
b = { k = "v" }
