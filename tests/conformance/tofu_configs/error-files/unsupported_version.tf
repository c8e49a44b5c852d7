language {
  compatible_with {
    opentofu = "999.9" # ERROR: Incompatible module
  }
}
