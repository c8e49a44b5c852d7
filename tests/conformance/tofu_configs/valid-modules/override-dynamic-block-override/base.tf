
resource "test" "foo" {
  foo {
    from = "base"
  }
}
