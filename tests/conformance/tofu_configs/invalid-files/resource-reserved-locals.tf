resource "test" "foo" {
  locals {}
}
