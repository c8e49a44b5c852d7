a = "${
  var.x
}"
b = "${var.x ? 1
 : 2}"
c = "${(var.x ? 1
 : 2)}"
