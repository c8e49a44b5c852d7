resource /* a */ "x" /* b */ "y" {
}
