terraform {
  cloud {
    organization = "CHANGED"
  }
}
