a = true
b=false
c  =  null
