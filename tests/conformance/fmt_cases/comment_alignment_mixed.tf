locals {
  a = 1 # x
  bbbbbbbbb = "long" # y
  # own line
  c = 3 # z
}
