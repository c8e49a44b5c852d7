x {
  a = 1
  long_name = 2
  blk {}
  b = 3
  cc = 4
}
