language {
  experiments = [unsupported] # ERROR: Unknown experiment keyword
}
