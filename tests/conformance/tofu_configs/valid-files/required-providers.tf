
terraform {
  required_providers {
    aws    = "~> 1.0.0"
    consul = "~> 1.2.0"
  }
}
