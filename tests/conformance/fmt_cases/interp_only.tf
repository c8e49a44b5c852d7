a = "${var.x}"
b = "${var.x}-suffix"
c = "${var.a}${var.b}"
d = "${foo("${bar}")}"
