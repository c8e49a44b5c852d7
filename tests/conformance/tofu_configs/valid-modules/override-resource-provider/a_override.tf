resource "test_instance" "explicit" {
  provider = bar-test
}
