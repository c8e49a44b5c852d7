terraform {
  required_providers {
    local = {
      source = "hashicorp/local"
    }
  }
}
