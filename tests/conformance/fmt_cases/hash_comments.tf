# top
#   spaced
resource "a" "b" { # after brace
  # inside
  x = 1 # trailing
  yy = 2    # trailing two
}
