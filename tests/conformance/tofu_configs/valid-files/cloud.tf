
terraform {
  cloud {
    foo = "bar"

    baz {
      bar = "foo"
    }
  }
}
