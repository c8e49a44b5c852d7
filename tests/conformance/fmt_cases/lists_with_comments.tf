a = [
  1, 2, # x
  3,
]
b = {
  c = 1, d = 2
}
  # indented comment
/* x */ e = 1
