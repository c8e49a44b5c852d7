a = var.x ? {
  k = 1
} : {
  k = 2
}
bb = 1
