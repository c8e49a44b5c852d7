terraform {
  cloud {
    organization = "foo"
  }
}
