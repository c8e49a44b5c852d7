locals {
  a = 1
  b_long = "x"

  c = [
  1, 2
  ]
  d = 3
}
