terraform {
  required_version = ">= 0.12.26"

  required_providers {
    aws = ">= 3.36"
  }
}
