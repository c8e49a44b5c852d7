tags = {
Name = "x"
  Environment = "prod"
    "quoted key" = 1
}
