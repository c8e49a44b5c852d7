x {
  a = [
    1,
  ]
  long_name = 2
  b = {
    k = 1
  }
}
