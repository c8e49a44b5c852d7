terraform {
  backend "bar" {
    path = "CHANGED/relative/path/to/terraform.tfstate"
  }
}
