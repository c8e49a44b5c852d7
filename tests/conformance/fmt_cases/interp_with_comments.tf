resource "a" "b" { # c
  x = "${ var.y }" /* q */
}
locals {
  o = { "${k}" = "${v}" }
}
