data "test" "foo" {
  locals {}
}
