x {
      s = <<-EOT
        hello
          world
        EOT
  long_attr = 2
}
