resource "a" "b" {
  a = 1
  bbbb = 2
  cc     = 3

  ddddd = 4
  e = 5
}
