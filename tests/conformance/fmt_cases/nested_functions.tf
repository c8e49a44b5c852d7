a = lookup( merge(var.a,{b=1}), "k", null )
