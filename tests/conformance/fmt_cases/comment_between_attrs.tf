x {
  a = 1
  # c
  bb = 2
  /* d */
  ccc = 3
}
