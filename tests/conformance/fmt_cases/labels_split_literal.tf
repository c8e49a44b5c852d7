resource "a$${x}" "b\"q" {}
resource "x" /* a */ /* b */ "y" {
}
