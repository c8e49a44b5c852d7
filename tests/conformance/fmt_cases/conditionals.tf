a = var.x?1:2
b = var.x ? "y" : "z"
c = (
  var.x
  ? 1
  : 2
)
